//! The tools a flow follows besides downloads, decoders and shells:
//! package sources, remote output (`ssh host cmd`, DNS answers), archives
//! unpacked and repositories cloned from the network, cloud copies, the
//! clipboard and the screen, git publishing what a script staged,
//! scheduling with `at`, permissions opened to others, containers given
//! the home folder, and destruction other than `rm`.

use super::{CRED_PATH, Flow, Taint, Word, glob_names_credential, is_home, is_url, remote_spec};

/// Folders of keys and tokens, home-relative.
const SECRET_DIRS: &[&str] = &[
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".docker",
    ".config/gcloud",
    ".azure",
];

/// `~/.ssh`, `$HOME/.aws/` …: a whole folder of keys.
fn secret_folder(t: &str) -> bool {
    let rest = [
        "~/",
        "$HOME/",
        "${HOME}/",
        "${localEnv:HOME}/",
        "${env:HOME}/",
    ]
    .iter()
    .find_map(|p| t.strip_prefix(p));
    rest.is_some_and(|r| {
        let r = r.trim_end_matches('/');
        SECRET_DIRS
            .iter()
            .any(|d| r == *d || r.starts_with(&format!("{d}/")))
    })
}

/// A credential path, a key but not its public half.
fn names_secret(t: &str) -> bool {
    !t.ends_with(".pub") && (CRED_PATH.is_match(t) || glob_names_credential(t) || secret_folder(t))
}

/// The operands of `texts`: words that are not options, skipping the
/// value of each option in `valued`.
fn operands<'a>(texts: &[&'a str], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < texts.len() {
        let t = texts[k];
        if valued.contains(&t) {
            k += 2;
            continue;
        }
        if !t.starts_with('-') || t == "-" {
            out.push(t);
        }
        k += 1;
    }
    out
}

/// A chmod mode that lets group or others write, or others read.
fn opens(mode: &str, read_counts: bool) -> bool {
    if mode.chars().all(|c| c.is_ascii_digit()) && !mode.is_empty() {
        let d = |k: usize| {
            mode.chars()
                .rev()
                .nth(k)
                .and_then(|c| c.to_digit(8))
                .unwrap_or(0)
        };
        let (group, others) = (d(1), d(0));
        return group & 2 != 0 || others & 2 != 0 || (read_counts && others & 4 != 0);
    }
    mode.split(',').any(|m| {
        let (who, perm) = m.split_once(['+', '=']).unwrap_or(("", ""));
        let wide = who.is_empty() || who.contains(['o', 'a']);
        wide && (perm.contains('w') || (read_counts && perm.contains('r')))
    })
}

impl Flow {
    /// A package runner, installer or package source on a command line.
    pub(super) fn packages(&mut self, name: &str, texts: &[&str], line: usize) {
        let (name, texts) = super::pip_module(name, texts).unwrap_or((name, texts));
        if let Some(message) = super::super::packages::foreign_source(name, texts) {
            self.hit("package-source", line, message);
        }
        match super::package_by_url(name, texts) {
            Some("pipe-to-shell") => self.hit(
                "pipe-to-shell",
                line,
                format!("runs a package fetched from a URL with {name}"),
            ),
            Some(rule)
                if !self
                    .hits
                    .iter()
                    .any(|h| h.line == line && h.rule == "package-source") =>
            {
                self.hit(
                    rule,
                    line,
                    format!("installs a package fetched from a URL with {name}"),
                )
            }
            _ => {}
        }
    }

    /// Commands the main match does not name.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn more(
        &mut self,
        name: &str,
        texts: &[&str],
        args: &[&Word],
        input: Taint,
        arg_t: Taint,
        line: usize,
        out: &mut Taint,
    ) {
        let has = |f: &str| texts.contains(&f);
        match name {
            "ssh" => self.ssh(texts, out, line),
            // A DNS answer is text from whoever runs the zone.
            "dig" | "nslookup" | "host" | "drill" | "kdig" => out.net = true,
            "tar" | "bsdtar" => self.untar(texts, input),
            "git" => self.git(texts, arg_t, line),
            "cd" => {
                self.cwd_home = texts.first().is_none_or(|t| is_home(t));
                self.cwd = texts.first().map(|t| t.to_string());
            }
            "tee" if texts.iter().any(|t| super::is_disk(t)) => {
                self.hit("wipe-disk", line, "writes over a whole disk".into());
            }
            "aws" | "gsutil" | "gcloud" | "az" | "rclone" | "azcopy"
                if cloud_upload(name, texts) =>
            {
                self.send_part(input.or(arg_t), line, "copies files to a cloud bucket");
            }
            "xclip" | "xsel" if has("-o") || has("--output") || has("-out") => {
                self.cred_out(out, line)
            }
            "pbpaste" | "wl-paste" | "Get-Clipboard" | "gpaste-client" => self.cred_out(out, line),
            // A password asked for in a dialog of the skill's own.
            "zenity" | "kdialog" | "yad" if texts.iter().any(|t| t.starts_with("--password")) => {
                self.cred_out(out, line)
            }
            "osascript" if texts.iter().any(|t| t.contains("hidden answer")) => {
                self.cred_out(out, line)
            }
            "import" if has("-window") => self.screenshot(texts, line),
            "scrot" | "screencapture" | "gnome-screenshot" | "grim" | "maim" | "spectacle" => {
                self.screenshot(texts, line)
            }
            "rsync" if texts.iter().any(|t| t.starts_with("--delete")) => {
                let dest = texts.last().copied().unwrap_or("");
                let dest_t = args.last().map(|w| self.word(w, line)).unwrap_or_default();
                if is_home(dest) || dest_t.home {
                    self.hit(
                        "rm-rf-root-home",
                        line,
                        "deletes everything in the home folder that the source lacks (rsync --delete)"
                            .into(),
                    );
                }
            }
            "mv" => {
                let ops = operands(texts, &["-t", "--target-directory", "-S", "--suffix"]);
                let src_home = args
                    .iter()
                    .find(|w| !w.text.starts_with('-'))
                    .is_some_and(|w| is_home(&w.text) || self.word(w, line).home);
                if ops.len() >= 2 && src_home {
                    self.hit("rm-rf-root-home", line, "moves the home folder away".into());
                }
            }
            "shred" | "srm" | "wipe" if texts.iter().any(|t| names_secret(t)) || arg_t.cred => {
                self.hit(
                    "rm-rf-root-home",
                    line,
                    "destroys the user's keys past recovery".into(),
                );
            }
            "chmod" | "chown" | "chgrp" | "setfacl" => self.perms(name, texts, line),
            "docker" | "podman" | "nerdctl" => self.container(texts, line),
            "wasmtime" | "wasmer" | "wasmedge" => {
                let dirs = texts
                    .windows(2)
                    .filter(|w| matches!(w[0], "--dir" | "--mapdir"))
                    .map(|w| w[1]);
                if dirs
                    .chain(texts.iter().filter_map(|t| t.strip_prefix("--dir=")))
                    .any(|d| {
                        let host = d.split("::").next().unwrap_or(d);
                        let host = host.split(':').next().unwrap_or(host);
                        is_home(host) || host == "/" || names_secret(host)
                    })
                {
                    self.hit(
                        "container-access",
                        line,
                        "gives a WebAssembly module the home folder".into(),
                    );
                }
            }
            _ => {}
        }
    }

    /// `ssh`: a remote command's output comes from the network; `-R`
    /// and `-A` open this machine to the other end.
    fn ssh(&mut self, texts: &[&str], out: &mut Taint, line: usize) {
        const VALUED: &str = "BbcDEeFIiJLlmOoPpQRSWw";
        let mut ops = Vec::new();
        let (mut agent, mut remote_forward) = (false, false);
        let mut k = 0;
        while k < texts.len() {
            let t = texts[k];
            if ops.is_empty() && t.len() > 1 && t.starts_with('-') {
                let flags = &t[1..];
                for (j, c) in flags.char_indices() {
                    agent |= c == 'A';
                    if VALUED.contains(c) {
                        let value = if j + 1 < flags.len() {
                            &flags[j + 1..]
                        } else {
                            k += 1;
                            texts.get(k).copied().unwrap_or("")
                        };
                        remote_forward |= c == 'R';
                        let v = value.to_ascii_lowercase();
                        agent |= c == 'o' && v.replace(' ', "=") == "forwardagent=yes";
                        remote_forward |= c == 'o' && v.starts_with("remoteforward");
                        break;
                    }
                }
            } else {
                ops.push(t);
            }
            k += 1;
        }
        if ops.len() >= 2 {
            out.net = true;
        }
        if !ops.is_empty() && (agent || remote_forward) {
            let what = if agent {
                "lends the user's ssh agent (their keys) to another host (ssh -A)"
            } else {
                "opens a port of this machine to another host (ssh -R)"
            };
            self.hit("expose-host", line, what.into());
        }
    }

    /// `tar x` of a download: what it unpacks is downloaded.
    fn untar(&mut self, texts: &[&str], input: Taint) {
        let first = texts.first().copied().unwrap_or("");
        let extract = texts.iter().any(|t| *t == "--extract" || *t == "--get")
            || (!first.starts_with("--") && first.trim_start_matches('-').contains('x'));
        if !extract {
            return;
        }
        let file: Option<&str> = texts
            .iter()
            .position(|t| {
                !t.starts_with("--") && t.trim_start_matches('-').contains('f') && t.len() < 8
            })
            .and_then(|k| texts.get(k + 1))
            .copied()
            .or_else(|| texts.iter().find_map(|t| t.strip_prefix("--file=")));
        let from_net = input.net || file.is_some_and(|f| self.downloaded(f, true));
        if !from_net {
            return;
        }
        let dir = texts
            .windows(2)
            .find(|w| w[0] == "-C" || w[0] == "--directory")
            .map(|w| w[1])
            .or_else(|| texts.iter().find_map(|t| t.strip_prefix("--directory=")))
            .unwrap_or(".");
        self.mark_tree(dir);
    }

    /// A folder whose files all came from the network.
    fn mark_tree(&mut self, dir: &str) {
        let dir = dir.trim_end_matches('/');
        let dir = if dir.is_empty() { "/" } else { dir };
        self.trees.push(dir.to_string());
        if !dir.starts_with(['/', '.', '~', '$']) {
            self.trees.push(format!("./{dir}"));
        }
    }

    /// git: a clone is downloaded code; what `git add` stages from a
    /// credential copy is published by the next `git push`.
    fn git(&mut self, texts: &[&str], arg_t: Taint, line: usize) {
        const CLONE_VALUED: &[&str] = &[
            "-b",
            "--branch",
            "--depth",
            "-o",
            "--origin",
            "-c",
            "--config",
            "--reference",
            "-j",
            "--jobs",
            "--filter",
            "-u",
            "--upload-pack",
            "--separate-git-dir",
        ];
        match texts.first().copied() {
            Some("clone") => {
                let ops = operands(&texts[1..], CLONE_VALUED);
                let Some(url) = ops.first() else { return };
                // A clone from a public forge is a package source like
                // `pip install git+https://github.com/…`; from any other
                // host, what it holds is what that host serves today.
                let remote = is_url(url) || url.contains('@') || url.starts_with("git://");
                if !remote || !super::super::packages::foreign_host(url) {
                    return;
                }
                let dir = ops.get(1).map(|d| d.to_string()).unwrap_or_else(|| {
                    let b = url
                        .trim_end_matches('/')
                        .rsplit(['/', ':'])
                        .next()
                        .unwrap_or("");
                    b.trim_end_matches(".git").to_string()
                });
                if !dir.is_empty() {
                    self.mark_tree(&dir);
                }
            }
            Some("add") => {
                let ops = operands(&texts[1..], &[]);
                let all = texts.iter().any(|t| matches!(*t, "-A" | "--all" | "."));
                // Only a file inside the working tree can be staged.
                let staged = arg_t.cred
                    || self.files.iter().any(|(path, t)| {
                        t.cred
                            && !path.starts_with(['/', '~', '$'])
                            && (all
                                || ops.iter().any(|p| {
                                    let p = p.trim_end_matches('/');
                                    path == p || path.starts_with(&format!("{p}/"))
                                }))
                    });
                self.staged_cred |= staged;
            }
            Some("commit") if texts.iter().any(|t| *t == "-a" || *t == "--all") => {
                self.staged_cred |= self.files.values().any(|t| t.cred);
            }
            Some("push") if self.staged_cred => {
                let t = Taint {
                    cred: true,
                    ..Taint::default()
                };
                self.send_part(t, line, "pushes a commit holding a credential it copied");
            }
            _ => {}
        }
    }

    /// A screenshot's file holds whatever was on the screen: passwords,
    /// tokens, private messages.
    fn screenshot(&mut self, texts: &[&str], line: usize) {
        let file = texts
            .iter()
            .rev()
            .find(|t| !t.starts_with('-') && t.contains('.'));
        if let Some(f) = file {
            let t = Taint {
                cred: true,
                ..Taint::default()
            };
            self.files.insert(f.to_string(), t);
            self.cred.get_or_insert(line);
        }
    }

    /// Permissions that open keys, the home folder or the Docker socket
    /// to other users, or take the home folder from its user.
    fn perms(&mut self, name: &str, texts: &[&str], line: usize) {
        let recursive = texts.iter().any(|t| {
            *t == "--recursive" || (t.starts_with('-') && !t.starts_with("--") && t.contains('R'))
        });
        let ops = operands(texts, &["-m", "-M", "-x", "--modify", "--reference"]);
        let acl = texts
            .windows(2)
            .find(|w| matches!(w[0], "-m" | "--modify"))
            .map(|w| w[1]);
        let (mode, targets): (&str, &[&str]) = match name {
            "chmod" => match ops.split_first() {
                Some((m, rest)) => (m, rest),
                None => return,
            },
            "setfacl" => (acl.unwrap_or(""), &ops),
            _ => ("", ops.get(1..).unwrap_or_default()),
        };
        let home = targets.iter().any(|t| is_home(t));
        let opened = |t: &str| {
            name == "chmod" && opens(mode, !t.ends_with(".ssh") && !t.ends_with("config"))
        };
        let acl_opens = name == "setfacl"
            && mode.split(',').any(|e| {
                (e.starts_with("o:") || e.starts_with("other:")) && e.contains(['w', 'r'])
            });
        let message = if home && recursive && name != "setfacl" {
            Some("changes the owner or permissions of everything in the home folder")
        } else if home && acl_opens {
            Some("opens the home folder to every user")
        } else if targets
            .iter()
            .any(|t| names_secret(t) && (opened(t) || acl_opens))
        {
            Some("opens private keys to other users")
        } else if targets
            .iter()
            .any(|t| t.ends_with("docker.sock") && (opened(t) || acl_opens))
        {
            Some("opens the Docker socket, root on this machine, to every user")
        } else {
            None
        };
        if let Some(m) = message {
            self.hit("config-tampering", line, m.into());
        }
    }

    /// `docker run -v ~:/h`: the image's code, which the skill does not
    /// show, gets the home folder, a folder of keys or the host's root.
    fn container(&mut self, texts: &[&str], line: usize) {
        let sub = texts
            .iter()
            .find(|t| !t.starts_with('-'))
            .copied()
            .unwrap_or("");
        let runs = matches!(sub, "run" | "create" | "container" | "compose" | "build");
        if !runs {
            return;
        }
        let mut sources = Vec::new();
        for (k, t) in texts.iter().enumerate() {
            let value = match *t {
                "-v" | "--volume" | "--mount" => texts.get(k + 1).copied(),
                _ => ["--volume=", "--mount="]
                    .iter()
                    .find_map(|p| t.strip_prefix(p)),
            };
            let Some(v) = value else { continue };
            if v.contains("src=") || v.contains("source=") {
                for part in v.split(',') {
                    if let Some(s) = part
                        .strip_prefix("src=")
                        .or_else(|| part.strip_prefix("source="))
                    {
                        sources.push(s);
                    }
                }
            } else {
                sources.push(v.split(':').next().unwrap_or(v));
            }
        }
        if sources
            .iter()
            .any(|s| is_home(s) || *s == "/" || names_secret(s))
        {
            self.hit(
                "container-access",
                line,
                "gives a container the home folder, a folder of keys or the host's root".into(),
            );
        }
    }

    /// `python3 -m http.server` serving the home folder to the network.
    pub(super) fn serves(&mut self, texts: &[&str], line: usize) {
        let server = texts
            .windows(2)
            .any(|w| w[0] == "-m" && matches!(w[1], "http.server" | "SimpleHTTPServer"));
        if !server {
            return;
        }
        let dir = texts
            .windows(2)
            .find(|w| matches!(w[0], "-d" | "--directory"))
            .map(|w| w[1]);
        let home = dir.map_or(self.cwd_home, is_home);
        let bind = texts
            .windows(2)
            .find(|w| matches!(w[0], "-b" | "--bind"))
            .map(|w| w[1]);
        let local = bind.is_some_and(|b| b.starts_with("127.") || b == "localhost" || b == "::1");
        if home && !local {
            self.hit(
                "expose-host",
                line,
                "serves the home folder to the network".into(),
            );
        }
    }
}

/// A copy to a cloud bucket or remote: `aws s3 cp … s3://`, `gsutil cp …
/// gs://`, `az storage blob upload`, `rclone copy … remote:`.
fn cloud_upload(name: &str, texts: &[&str]) -> bool {
    let last = texts.last().copied().unwrap_or("");
    let copies = texts.iter().any(|t| {
        matches!(
            *t,
            "cp" | "mv" | "sync" | "rsync" | "copy" | "copyto" | "move"
        )
    });
    match name {
        // An upload names a bucket after the first operand (the source).
        "aws" => {
            let ops = operands(
                texts,
                &["--acl", "--profile", "--region", "--storage-class"],
            );
            texts.first() == Some(&"s3")
                && copies
                && ops.iter().skip(3).any(|t| t.starts_with("s3://"))
        }
        "gsutil" | "gcloud" => copies && last.starts_with("gs://"),
        "az" => texts.iter().any(|t| t.starts_with("upload")),
        "rclone" => copies && remote_spec(last),
        "azcopy" => copies && is_url(last),
        _ => false,
    }
}
