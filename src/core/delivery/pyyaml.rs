//! The YAML text PyYAML 6 writes for a mapping of strings, as
//! python-frontmatter dumps a Copilot agent's metadata:
//! `yaml.dump(meta, Dumper=CSafeDumper, default_flow_style=False,
//! allow_unicode=True)` with sorted keys. PyYAML's C dumper is libyaml
//! 0.2.5's emitter, so we drive the same emitter (`unsafe-libyaml`, a
//! faithful translation) with the events PyYAML's serializer sends.
//!
//! One difference is bridged here: libyaml 0.2.5 counts characters above
//! U+FFFF as unprintable (it writes them as `\UXXXXXXXX` in a double-quoted
//! scalar), while the translation prints them. Each such character is
//! stood in for by two unprintable characters whose escapes are exactly as
//! long (`\uFFFE\x01`, 10 columns, 4 bytes), so quoting and folding come
//! out the same, and the stand-in escape is then replaced by the real one.

use std::mem::MaybeUninit;

use unsafe_libyaml as unsafe_ly;

use crate::core::parse::yaml::resolve_plain;

/// `pairs` dumped as PyYAML dumps a dict of str (keys sorted by code point,
/// the last of duplicate keys kept), stripped as python-frontmatter strips
/// it. `Err` only if libyaml refuses (it does not for valid UTF-8).
pub fn dump_str_map(pairs: &[(String, String)]) -> Result<String, String> {
    let mut sorted: Vec<&(String, String)> = Vec::with_capacity(pairs.len());
    for pair in pairs.iter().rev() {
        if !sorted.iter().any(|p| p.0 == pair.0) {
            sorted.push(pair);
        }
    }
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut astral: Vec<char> = Vec::new();
    let (lead, trail) = stand_in(pairs);
    let mut scalars: Vec<(String, bool)> = Vec::new();
    for (k, v) in sorted {
        for s in [k, v] {
            let implicit = resolve_plain(s) == "str";
            scalars.push((substitute(s, lead, trail, &mut astral), implicit));
        }
    }
    let text = emit(&scalars)?;
    let text = restore(&text, lead, trail, &astral);
    Ok(crate::core::text::py_strip(&text).to_string())
}

/// Two unprintable characters (neither a break nor a space) that appear
/// next to each other in no input, to stand for one astral character.
fn stand_in(pairs: &[(String, String)]) -> (char, char) {
    let trails = ('\u{1}'..='\u{6}').chain('\u{e}'..='\u{1a}');
    for lead in ['\u{fffe}', '\u{ffff}'] {
        for trail in trails.clone() {
            let both: String = [lead, trail].iter().collect();
            if !pairs
                .iter()
                .any(|(k, v)| k.contains(&both) || v.contains(&both))
            {
                return (lead, trail);
            }
        }
    }
    // 42 pairs cannot all occur in metadata a person wrote; if they do,
    // the first one is used and `restore` may misplace an escape.
    ('\u{fffe}', '\u{1}')
}

fn substitute(s: &str, lead: char, trail: char, astral: &mut Vec<char>) -> String {
    s.chars()
        .flat_map(|c| {
            if (c as u32) > 0xFFFF {
                astral.push(c);
                [Some(lead), Some(trail)]
            } else {
                [Some(c), None]
            }
        })
        .flatten()
        .collect()
}

/// Replaces each stand-in escape, in order, by libyaml 0.2.5's escape of
/// the astral character it stood for. Escapes are read whole, so an
/// escaped backslash never starts a false match.
fn restore(text: &str, lead: char, trail: char, astral: &[char]) -> String {
    if astral.is_empty() {
        return text.to_string();
    }
    let marker = format!("u{:04X}\\x{:02X}", lead as u32, trail as u32);
    let mut out = String::with_capacity(text.len());
    let mut next = astral.iter();
    let mut rest = text;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after.strip_prefix(marker.as_str()) {
            Some(tail) if next.len() > 0 => {
                let c = next.next().copied().unwrap_or_default();
                out.push_str(&format!("\\U{:08X}", c as u32));
                rest = tail;
            }
            _ => {
                let escaped = after.chars().next().map_or(0, char::len_utf8);
                out.push('\\');
                out.push_str(&after[..escaped]);
                rest = &after[escaped..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Stream, implicit document, block mapping of plain-or-quoted scalars, as
/// PyYAML's serializer sends them (tag omitted when the plain scalar would
/// load as a str, quoted scalars always implicit).
fn emit(scalars: &[(String, bool)]) -> Result<String, String> {
    let mut out: Vec<u8> = Vec::new();
    let refused = || "the YAML emitter refused the agent's metadata".to_string();
    // SAFETY: the emitter is initialised before use and deleted on every
    // path; `out` and each scalar outlive the calls that read them; every
    // event is handed to the emitter, which takes ownership of it.
    unsafe {
        let mut em = MaybeUninit::<unsafe_ly::yaml_emitter_t>::uninit();
        if unsafe_ly::yaml_emitter_initialize(em.as_mut_ptr()).fail {
            return Err(refused());
        }
        let em = em.as_mut_ptr();
        unsafe_ly::yaml_emitter_set_output(em, collect, (&mut out as *mut Vec<u8>).cast());
        unsafe_ly::yaml_emitter_set_unicode(em, true);
        let ok = emit_events(em, scalars);
        let flushed = ok && !unsafe_ly::yaml_emitter_flush(em).fail;
        unsafe_ly::yaml_emitter_delete(em);
        if !flushed {
            return Err(refused());
        }
    }
    String::from_utf8(out).map_err(|_| refused())
}

unsafe fn emit_events(em: *mut unsafe_ly::yaml_emitter_t, scalars: &[(String, bool)]) -> bool {
    let mut ev = MaybeUninit::<unsafe_ly::yaml_event_t>::uninit();
    let e = ev.as_mut_ptr();
    // SAFETY: see `emit`.
    unsafe {
        let send = |init: bool| init && !unsafe_ly::yaml_emitter_emit(em, e).fail;
        let mut ok = send(
            !unsafe_ly::yaml_stream_start_event_initialize(e, unsafe_ly::YAML_UTF8_ENCODING).fail,
        );
        ok = ok
            && send(
                !unsafe_ly::yaml_document_start_event_initialize(
                    e,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                    true,
                )
                .fail,
            );
        ok = ok
            && send(
                !unsafe_ly::yaml_mapping_start_event_initialize(
                    e,
                    std::ptr::null(),
                    std::ptr::null(),
                    true,
                    unsafe_ly::YAML_BLOCK_MAPPING_STYLE,
                )
                .fail,
            );
        for (s, plain_implicit) in scalars {
            let Ok(len) = i32::try_from(s.len()) else {
                return false;
            };
            let init = unsafe_ly::yaml_scalar_event_initialize(
                e,
                std::ptr::null(),
                std::ptr::null(),
                s.as_ptr(),
                len as _,
                *plain_implicit,
                true,
                unsafe_ly::YAML_ANY_SCALAR_STYLE,
            );
            ok = ok && send(!init.fail);
        }
        ok = ok && send(!unsafe_ly::yaml_mapping_end_event_initialize(e).fail);
        ok = ok && send(!unsafe_ly::yaml_document_end_event_initialize(e, true).fail);
        ok && send(!unsafe_ly::yaml_stream_end_event_initialize(e).fail)
    }
}

unsafe fn collect(data: *mut std::ffi::c_void, buf: *mut u8, size: u64) -> i32 {
    // SAFETY: `data` is the `Vec<u8>` `emit` handed to the emitter, and
    // libyaml passes `size` readable bytes at `buf`.
    unsafe {
        let out = &mut *data.cast::<Vec<u8>>();
        out.extend_from_slice(std::slice::from_raw_parts(buf, size as usize));
    }
    1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dump(pairs: &[(&str, &str)]) -> String {
        let owned: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        dump_str_map(&owned).unwrap()
    }

    // Expected texts are PyYAML 6.0.3 + libyaml 0.2.5 output (CAO's venv).
    #[test]
    fn sorted_quoted_and_folded_as_pyyaml() {
        assert_eq!(
            dump(&[("name", "cop"), ("description", "yes")]),
            "description: 'yes'\nname: cop"
        );
        assert_eq!(
            dump(&[("name", "123"), ("description", "")]),
            "description: ''\nname: '123'"
        );
        assert_eq!(dump(&[("description", "a #b")]), "description: 'a #b'");
        assert_eq!(
            dump(&[("description", "tab\there")]),
            "description: \"tab\\there\""
        );
        assert_eq!(
            dump(&[(
                "description",
                "Copilot agent: test, with 'quotes' and a very long description that exceeds the eighty column limit of yaml"
            )]),
            "description: 'Copilot agent: test, with ''quotes'' and a very long description that\n  exceeds the eighty column limit of yaml'"
        );
    }

    #[test]
    fn astral_characters_escaped_as_libyaml_0_2_5() {
        assert_eq!(dump(&[("d", "a \u{1F600} b")]), "d: \"a \\U0001F600 b\"");
        // An escaped backslash before the stand-in's text is left alone.
        assert_eq!(
            dump(&[("d", "\\uFFFE\u{1}\u{1F600}")]),
            "d: \"\\\\uFFFE\\x01\\U0001F600\""
        );
    }
}
