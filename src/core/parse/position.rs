//! Where in a text: an error with its line, and the map from the char
//! offsets YAML parsers report to the byte offsets Rust slices by. Both
//! YAML readers (`yaml` and `libyaml`) share these, so neither needs the
//! other.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct YamlError {
    pub message: String,
    /// 1-based line in the parsed text, when known.
    pub line: Option<usize>,
}

impl std::fmt::Display for YamlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{} (line {line})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

pub(crate) struct CharToByte {
    offsets: Option<Vec<usize>>,
}

impl CharToByte {
    pub(crate) fn new(text: &str) -> Self {
        if text.is_ascii() {
            return CharToByte { offsets: None };
        }
        let mut offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        offsets.push(text.len());
        CharToByte {
            offsets: Some(offsets),
        }
    }

    pub(crate) fn byte(&self, char_index: usize) -> usize {
        match &self.offsets {
            None => char_index,
            Some(o) => o[char_index.min(o.len() - 1)],
        }
    }

    /// The index of the char starting at (or holding) a byte offset.
    pub(crate) fn char_at(&self, byte: usize) -> usize {
        match &self.offsets {
            None => byte,
            Some(o) => o.partition_point(|&b| b < byte).min(o.len() - 1),
        }
    }
}
