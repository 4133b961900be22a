//! A SKILL.md's frontmatter as the JSON object the MCP Skills extension
//! puts in a skill's entry: every field the author wrote, typed as CAO's
//! YAML reader (PyYAML) types it.

use serde_json::{Map, Number, Value as Json};

use crate::core::parse::yaml::{MAX_WORK, Node, Value};

/// The frontmatter mapping as JSON. Keys that are not strings are written
/// as their source text, as a JSON reader would need them; `fm_text` is
/// the frontmatter's text. An error when it is not a mapping, or when it
/// expands to over [`MAX_WORK`] values: YAML aliases share one node, so a
/// 1 KB file can stand for billions of values once written out (the YAML
/// reader bounds the aliases it resolves by the same number).
pub fn to_json(metadata: &Node, fm_text: &str) -> Result<Map<String, Json>, String> {
    let mut budget = MAX_WORK;
    match node_to_json(metadata, fm_text, 0, &mut budget)? {
        Json::Object(map) => Ok(map),
        _ => Err("its frontmatter is not a mapping".into()),
    }
}

/// Deeper than this, a value is its source text: YAML aliases can nest a
/// small file into a huge tree.
const MAX_DEPTH: usize = 64;

fn node_to_json(
    node: &Node,
    fm_text: &str,
    depth: usize,
    budget: &mut usize,
) -> Result<Json, String> {
    *budget = budget.checked_sub(1).ok_or_else(|| {
        format!(
            "its frontmatter expands to over {MAX_WORK} values (YAML aliases): write the values out instead"
        )
    })?;
    if depth > MAX_DEPTH {
        return Ok(Json::String(source(node, fm_text)));
    }
    let mut json = |n: &Node| node_to_json(n, fm_text, depth + 1, budget);
    Ok(match &node.value {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => int(*i),
        // NaN and the infinities have no JSON form: their YAML text stands in.
        Value::Float(f) => Number::from_f64(*f)
            .map(Json::Number)
            .unwrap_or_else(|| Json::String(source(node, fm_text))),
        Value::Str(s) => Json::String(s.clone()),
        Value::Bytes(b) => Json::String(String::from_utf8_lossy(b).into_owned()),
        Value::Timestamp(_) => Json::String(source(node, fm_text)),
        Value::Seq(items) => Json::Array(items.iter().map(|n| json(n)).collect::<Result<_, _>>()?),
        Value::Map(pairs) => {
            let mut map = Map::new();
            for (k, v) in pairs {
                // PyYAML: the last of duplicate keys wins, in the first one's place.
                map.insert(key(k, fm_text), json(v)?);
            }
            Json::Object(map)
        }
        Value::Pairs(pairs) => Json::Array(
            pairs
                .iter()
                .map(|(k, v)| Ok(Json::Array(vec![json(k)?, json(v)?])))
                .collect::<Result<_, String>>()?,
        ),
    })
}

fn int(i: i128) -> Json {
    if let Ok(v) = i64::try_from(i) {
        Json::Number(v.into())
    } else if let Ok(v) = u64::try_from(i) {
        Json::Number(v.into())
    } else {
        Json::String(i.to_string())
    }
}

fn key(node: &Node, fm_text: &str) -> String {
    match &node.value {
        Value::Str(s) => s.clone(),
        _ => source(node, fm_text),
    }
}

fn source(node: &Node, fm_text: &str) -> String {
    fm_text
        .get(node.span.clone())
        .unwrap_or_default()
        .trim()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::cao::skill::doc_from_text;

    fn json_of(text: &str) -> Json {
        let doc = doc_from_text(text).unwrap();
        let meta = doc.frontmatter.metadata().unwrap();
        Json::Object(to_json(meta, &doc.fm_text).unwrap())
    }

    #[test]
    fn an_alias_bomb_is_refused_not_expanded() {
        // 9 levels of 9 aliases each: 9^9 values written out, 1 KB of YAML.
        let mut text =
            String::from("---\nname: a\ndescription: d\nl0: &l0 [x, x, x, x, x, x, x, x, x]\n");
        for i in 1..9 {
            let refs = vec![format!("*l{}", i - 1); 9].join(", ");
            text.push_str(&format!("l{i}: &l{i} [{refs}]\n"));
        }
        text.push_str("---\nbody\n");
        let doc = doc_from_text(&text).unwrap();
        let e = to_json(doc.frontmatter.metadata().unwrap(), &doc.fm_text).unwrap_err();
        assert!(e.contains("YAML aliases"), "{e}");
    }

    #[test]
    fn every_field_keeps_its_yaml_type() {
        let got = json_of(
            "---\nname: a\ndescription: d\nversion: 2\nratio: 0.5\nflag: yes\nnone:\nlist: [x, 1]\nmetadata:\n  k: v\ndate: 2024-01-02\n---\nbody\n",
        );
        assert_eq!(
            got,
            serde_json::json!({
                "name": "a", "description": "d", "version": 2, "ratio": 0.5,
                "flag": true, "none": null, "list": ["x", 1], "metadata": {"k": "v"},
                "date": "2024-01-02"
            })
        );
    }

    #[test]
    fn a_duplicate_key_keeps_the_last_value() {
        let got = json_of("---\nname: a\ndescription: one\ndescription: two\n---\n");
        assert_eq!(got["description"], "two");
    }
}
