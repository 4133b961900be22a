//! A dependency whose name imitates a popular package by one edit
//! (`reqeusts`, `python-dateutils`): the typosquat an attacker registers
//! so that an agent adds it where the real one belongs. Read where a skill
//! adds or installs packages.

use std::sync::LazyLock;

use regex::Regex;

use super::context::ascii_classes;
use super::finding::Finding;

/// Widely used PyPI and npm packages, among each registry's most
/// downloaded: the names a typosquat copies.
const POPULAR: &[&str] = &[
    // PyPI
    "requests",
    "urllib3",
    "boto3",
    "botocore",
    "setuptools",
    "certifi",
    "charset-normalizer",
    "idna",
    "python-dateutil",
    "packaging",
    "typing-extensions",
    "numpy",
    "pandas",
    "pyyaml",
    "cryptography",
    "attrs",
    "pydantic",
    "jinja2",
    "markupsafe",
    "click",
    "pytest",
    "flask",
    "django",
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "psycopg2",
    "psycopg2-binary",
    "pillow",
    "scipy",
    "matplotlib",
    "scikit-learn",
    "tensorflow",
    "torch",
    "transformers",
    "beautifulsoup4",
    "selenium",
    "openai",
    "anthropic",
    "httpx",
    "aiohttp",
    "colorama",
    "tqdm",
    "pytz",
    "six",
    "wheel",
    "virtualenv",
    "python-dotenv",
    "pyjwt",
    "paramiko",
    "redis",
    "celery",
    "pymongo",
    "protobuf",
    "grpcio",
    "docutils",
    "pygments",
    "jsonschema",
    "lxml",
    "openpyxl",
    "xlsxwriter",
    "pyopenssl",
    "rsa",
    "simplejson",
    "websocket-client",
    "websockets",
    "tenacity",
    "rich",
    "langchain",
    "huggingface-hub",
    "tiktoken",
    "playwright",
    "black",
    "mypy",
    "ruff",
    "isort",
    "poetry",
    "twine",
    "keyring",
    "requests-oauthlib",
    "oauthlib",
    "google-auth",
    "awscli",
    "azure-core",
    "kubernetes",
    "docker",
    "ansible",
    "pyspark",
    "seaborn",
    "plotly",
    "sympy",
    "networkx",
    "opencv-python",
    "pyarrow",
    "polars",
    "streamlit",
    "gradio",
    "pypdf",
    "pdfplumber",
    "python-docx",
    "python-pptx",
    "reportlab",
    "markdown",
    "toml",
    "tomli",
    "filelock",
    // npm
    "react",
    "react-dom",
    "lodash",
    "express",
    "axios",
    "chalk",
    "commander",
    "debug",
    "moment",
    "typescript",
    "webpack",
    "babel-core",
    "eslint",
    "prettier",
    "jest",
    "mocha",
    "vue",
    "next",
    "dotenv",
    "uuid",
    "yargs",
    "inquirer",
    "request",
    "body-parser",
    "cors",
    "mongoose",
    "jquery",
    "underscore",
    "async",
    "glob",
    "rimraf",
    "mkdirp",
    "semver",
    "minimist",
    "ws",
    "socket.io",
    "node-fetch",
    "cross-env",
    "nodemon",
    "vite",
    "esbuild",
    "tailwindcss",
    "postcss",
    "autoprefixer",
    "zod",
    "classnames",
    "date-fns",
    "dayjs",
    "bluebird",
    "fs-extra",
    "colors",
    "ora",
    "execa",
    "puppeteer",
    "cheerio",
    "jsonwebtoken",
    "bcrypt",
    "bcryptjs",
    "passport",
    "nodemailer",
    "sharp",
    "electron",
    "redux",
    "react-redux",
    "react-router",
    "react-router-dom",
    "styled-components",
    "graphql",
    "apollo-server",
    "prisma",
    "sequelize",
    "knex",
    "pg",
    "mysql",
    "mysql2",
    "sqlite3",
    "ethers",
    "web3",
    "discord.js",
    "openai-node",
    "langchainjs",
];

/// Real packages one edit from a popular one: not look-alikes.
const REAL_NEIGHBOURS: &[&str] = &[
    "request",
    "requests",
    "color",
    "colors",
    "pyyaml",
    "yaml",
    "jsonschema",
    "pytest-mock",
    "flask-cors",
    "pg8000",
    "redis-py",
    "rich-click",
    "tomli-w",
    "execa",
    "glob2",
    "moment-timezone",
    "mysql2",
    "mysql",
    "bcrypt",
    "bcryptjs",
    "pydantic-core",
    "httpx",
    "next",
    "nest",
    "vite",
    "vitest",
    "boto",
    "boto3",
    "botocore",
    "async",
    "pillow",
    "docx",
    "pptx",
    "uuid4",
    "dotenv",
    "markdown2",
    "mistune",
    "react-dom",
    "react",
    "preact",
    "marked",
    "pino",
    "six",
    "sh",
    "ws",
    "pg",
    "torch",
    "torchvision",
    "click",
    "black",
    "blacken",
    "mypy",
    "pypy",
];

/// The popular package `name` imitates, if it is one edit from it and not
/// a real package itself.
pub fn imitates(name: &str) -> Option<&'static str> {
    let n = name.to_ascii_lowercase().replace('_', "-");
    if n.len() < 5 || POPULAR.contains(&n.as_str()) || REAL_NEIGHBOURS.contains(&n.as_str()) {
        return None;
    }
    POPULAR.iter().copied().find(|p| {
        p.len() >= 5
            && strsim::damerau_levenshtein(&n, p) == 1
            // A plural is a word more often than a squat, unless the name is long.
            && (n.len() >= 8 || n.strip_suffix('s') != Some(*p))
            // A digit more or less is a major version (`psycopg`,
            // `psycopg2`, `pyyaml5`): another package, not a look-alike.
            && digits(&n) == digits(p)
    })
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// An install command and the arguments after it, up to the end of the
/// command.
static INSTALL_ARGS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&ascii_classes(
        r"\b(?:pip3?\s+install|python3?\s+-m\s+pip\s+install|uv\s+(?:pip\s+install|add)|poetry\s+add|pipx\s+install|npm\s+(?:install|i|add)|yarn\s+add|pnpm\s+(?:add|install|i)|bun\s+(?:add|install))((?:\s+[^\s|;&`)#]+)+)",
    ))
    .expect("valid pattern")
});

/// A line that names where dependencies are listed.
static DEP_FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\brequirements[\w.-]*\.txt\b|\bpackage\.json\b|\bpyproject\.toml\b")
        .expect("valid pattern")
});

/// A whole inline code span.
static SPAN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"`([^`\s]{4,60})`").expect("valid pattern"));

/// A package name without its version, extras or range:
/// `reqeusts==2.31.0` is `reqeusts`.
fn bare(token: &str) -> &str {
    let t = token.trim_matches(|c: char| matches!(c, '\'' | '"' | ',' | '(' | ')'));
    let end = t
        .find(['=', '<', '>', '~', '!', '[', ';', ' '])
        .unwrap_or(t.len());
    let t = &t[..end];
    // `name@1.2`, but a scope `@org/name` is kept whole.
    match t.rfind('@') {
        Some(i) if i > 0 => &t[..i],
        _ => t,
    }
}

/// The package names line `line` adds: the arguments of an install
/// command, the code spans of a line naming a dependency file, or the
/// line itself in a requirements file.
fn names(line: &str, list: bool) -> Vec<&str> {
    let mut out = Vec::new();
    if list {
        let t = line.trim();
        if !t.starts_with(['#', '-']) && !t.is_empty() {
            out.push(bare(t.split_whitespace().next().unwrap_or("")));
        }
        return out;
    }
    for args in INSTALL_ARGS.captures_iter(line).filter_map(|c| c.get(1)) {
        out.extend(
            args.as_str()
                .split_whitespace()
                .filter(|a| {
                    (!a.starts_with('-') && !a.contains('/') && !a.contains('.'))
                        || a.contains("==")
                })
                .map(bare),
        );
    }
    if DEP_FILE.is_match(line) {
        out.extend(
            SPAN.captures_iter(line)
                .filter_map(|c| c.get(1))
                .map(|m| bare(m.as_str()))
                .filter(|n| !n.contains(['/', '*']) || n.starts_with('@')),
        );
    }
    out
}

/// Each line of `text` that installs or adds packages, for names that
/// imitate a popular one. In a requirements file every line is a package.
pub fn scan(rel: &str, text: &str, out: &mut Vec<Finding>) {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    let list = file.starts_with("requirements") && file.ends_with(".txt");
    for (k, line) in text.lines().enumerate() {
        if !list && !line.contains("install") && !line.contains("add") && !DEP_FILE.is_match(line) {
            continue;
        }
        if super::context::warns(line) {
            continue;
        }
        let Some((name, real)) = names(line, list)
            .into_iter()
            .find_map(|n| imitates(n).map(|r| (n, r)))
        else {
            continue;
        };
        out.push(
            Finding::new(
                "sabotage-code",
                rel,
                Some(k + 1),
                format!(
                    "adds the package '{}', one letter from the popular '{real}': a look-alike name",
                    crate::core::text::sanitize_line(name)
                ),
            )
            .with_excerpt(line, line.find(name).unwrap_or(0)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_added() {
        assert_eq!(
            names("pip install -U reqeusts==2.31 numpy", false),
            ["reqeusts", "numpy"]
        );
        assert_eq!(names("Add `lodahs` to package.json", false), ["lodahs"]);
        assert!(names("The network has no dependencies.", false).is_empty());
        assert_eq!(names("python-dateutils>=2.8", true), ["python-dateutils"]);
    }

    #[test]
    fn look_alikes() {
        assert_eq!(imitates("reqeusts"), Some("requests"));
        assert_eq!(imitates("python-dateutils"), Some("python-dateutil"));
        assert_eq!(imitates("lodahs"), Some("lodash"));
        for real in [
            "requests",
            "python-dateutil",
            "flasks",
            "colors",
            "pyyaml",
            "numpy",
            "psycopg",
        ] {
            assert_eq!(imitates(real), None, "{real}");
        }
    }
}
