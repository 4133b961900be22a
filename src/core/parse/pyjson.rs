//! JSON read the way Python's `json.loads` reads it: `NaN`, `Infinity` and
//! `-Infinity` are numbers, integers have no size limit and `1e400` is
//! infinity, control characters inside strings are refused, and a repeated
//! key keeps its first position with the last value. CAO reads JSON
//! frontmatter and settings.json this way; serde_json refuses some of it.

use crate::core::parse::yaml::PY_INT_MAX_STR_DIGITS;

/// A parsed JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// An integer; `None` when it does not fit (Python keeps it exact).
    Int(Option<i128>),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

pub fn parse(src: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: src.as_bytes(),
        i: 0,
        depth: 0,
    };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.error("Extra data"));
    }
    Ok(v)
}

/// Converts to serde_json for callers that only read strings and lists
/// (numbers that serde_json cannot hold become null).
pub fn to_serde(v: &Json) -> serde_json::Value {
    use serde_json::Value as V;
    match v {
        Json::Null => V::Null,
        Json::Bool(b) => V::Bool(*b),
        Json::Int(Some(i)) => i64::try_from(*i).map_or(V::Null, V::from),
        Json::Int(None) => V::Null,
        Json::Float(f) => serde_json::Number::from_f64(*f).map_or(V::Null, V::Number),
        Json::Str(s) => V::String(s.clone()),
        Json::Array(a) => V::Array(a.iter().map(to_serde).collect()),
        Json::Object(o) => V::Object(o.iter().map(|(k, v)| (k.clone(), to_serde(v))).collect()),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    depth: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.s[..self.i.min(self.s.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        format!("{what}: line {line}")
    }

    fn ws(&mut self) {
        while matches!(self.s.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, lit: &str) -> bool {
        let ok = self.s[self.i..].starts_with(lit.as_bytes());
        if ok {
            self.i += lit.len();
        }
        ok
    }

    fn value(&mut self) -> Result<Json, String> {
        self.depth += 1;
        if self.depth > 512 {
            return Err(self.error("nested too deeply"));
        }
        let v = match self.s.get(self.i) {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => self.string().map(Json::Str),
            _ if self.eat("null") => Ok(Json::Null),
            _ if self.eat("true") => Ok(Json::Bool(true)),
            _ if self.eat("false") => Ok(Json::Bool(false)),
            _ if self.eat("NaN") => Ok(Json::Float(f64::NAN)),
            _ if self.eat("Infinity") => Ok(Json::Float(f64::INFINITY)),
            _ if self.eat("-Infinity") => Ok(Json::Float(f64::NEG_INFINITY)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("Expecting value")),
        };
        self.depth -= 1;
        v
    }

    fn object(&mut self) -> Result<Json, String> {
        self.i += 1;
        let mut entries: Vec<(String, Json)> = Vec::new();
        self.ws();
        if self.eat("}") {
            return Ok(Json::Object(entries));
        }
        loop {
            self.ws();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.error("Expecting property name enclosed in double quotes"));
            }
            let key = self.string()?;
            self.ws();
            if !self.eat(":") {
                return Err(self.error("Expecting ':' delimiter"));
            }
            self.ws();
            let value = self.value()?;
            match entries.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => entries.push((key, value)),
            }
            self.ws();
            if self.eat("}") {
                return Ok(Json::Object(entries));
            }
            if !self.eat(",") {
                return Err(self.error("Expecting ',' delimiter"));
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.eat("]") {
            return Ok(Json::Array(items));
        }
        loop {
            self.ws();
            items.push(self.value()?);
            self.ws();
            if self.eat("]") {
                return Ok(Json::Array(items));
            }
            if !self.eat(",") {
                return Err(self.error("Expecting ',' delimiter"));
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let s = p.i;
            while matches!(p.s.get(p.i), Some(b'0'..=b'9')) {
                p.i += 1;
            }
            p.i - s
        };
        self.eat("-");
        if self.eat("0") {
            // Python reads "01" as 0 followed by extra data.
        } else if digits(self) == 0 {
            return Err(self.error("Expecting value"));
        }
        let mut float = false;
        let save = self.i;
        if self.eat(".") {
            if digits(self) == 0 {
                self.i = save;
            } else {
                float = true;
            }
        }
        let save = self.i;
        if self.eat("e") || self.eat("E") {
            let _ = self.eat("+") || self.eat("-");
            if digits(self) == 0 {
                self.i = save;
            } else {
                float = true;
            }
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("0");
        if !float && text.trim_start_matches('-').len() > PY_INT_MAX_STR_DIGITS {
            // Python refuses to convert it: a ValueError, as a syntax error is.
            return Err(self.error(&format!(
                "Exceeds the limit ({PY_INT_MAX_STR_DIGITS} digits) for integer string conversion"
            )));
        }
        Ok(if float {
            Json::Float(text.parse().unwrap_or(f64::NAN))
        } else {
            Json::Int(text.parse().ok())
        })
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out: Vec<u16> = Vec::new();
        let mut buf = [0u16; 2];
        loop {
            let rest =
                std::str::from_utf8(&self.s[self.i..]).map_err(|_| self.error("invalid UTF-8"))?;
            let Some(c) = rest.chars().next() else {
                return Err(self.error("Unterminated string"));
            };
            self.i += c.len_utf8();
            match c {
                '"' => return Ok(String::from_utf16_lossy(&out)),
                '\\' => out.push(self.escape()?),
                c if (c as u32) < 0x20 => return Err(self.error("Invalid control character")),
                c => out.extend_from_slice(c.encode_utf16(&mut buf)),
            }
        }
    }

    fn escape(&mut self) -> Result<u16, String> {
        let c = *self
            .s
            .get(self.i)
            .ok_or_else(|| self.error("Unterminated string"))?;
        self.i += 1;
        Ok(match c {
            b'"' => b'"' as u16,
            b'\\' => b'\\' as u16,
            b'/' => b'/' as u16,
            b'b' => 8,
            b'f' => 12,
            b'n' => 10,
            b'r' => 13,
            b't' => 9,
            b'u' => {
                let hex = self
                    .s
                    .get(self.i..self.i + 4)
                    .ok_or_else(|| self.error("Invalid \\uXXXX escape"))?;
                self.i += 4;
                let hex =
                    std::str::from_utf8(hex).map_err(|_| self.error("Invalid \\uXXXX escape"))?;
                u16::from_str_radix(hex, 16).map_err(|_| self.error("Invalid \\uXXXX escape"))?
            }
            _ => return Err(self.error("Invalid \\escape")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_extensions_and_strictness() {
        assert!(matches!(parse("NaN"), Ok(Json::Float(f)) if f.is_nan()));
        assert_eq!(
            parse("[-Infinity, 1e400]").unwrap(),
            Json::Array(vec![
                Json::Float(f64::NEG_INFINITY),
                Json::Float(f64::INFINITY)
            ])
        );
        assert_eq!(
            parse("123456789012345678901234567890123456789012").unwrap(),
            Json::Int(None)
        );
        assert!(parse("\"a\tb\"").is_err());
        let limit = "9".repeat(4300);
        assert_eq!(parse(&limit).unwrap(), Json::Int(None));
        assert!(parse(&format!("[-{limit}9]")).is_err());
        assert!(matches!(parse(&format!("{limit}9.5")), Ok(Json::Float(f)) if f.is_infinite()));
        assert!(parse("[1,]").is_err());
        assert!(parse("01").is_err());
        assert_eq!(parse("\"\\ud83d\\ude00\"").unwrap(), Json::Str("😀".into()));
        let obj = parse("{\"a\": 1, \"b\": 2, \"a\": 3}").unwrap();
        assert_eq!(
            obj,
            Json::Object(vec![
                ("a".into(), Json::Int(Some(3))),
                ("b".into(), Json::Int(Some(2)))
            ])
        );
    }
}
