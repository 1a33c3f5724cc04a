//! The tokenizer: one character a token, the token id being the
//! character's index in the model's vocabulary (its characters in code-point
//! order).

use super::weights::Model;

/// Why a text or a list of ids cannot be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// A character of the text is not in the vocabulary.
    #[error("the character {ch:?} at position {position} is not in the model's vocabulary")]
    UnknownCharacter {
        /// The character.
        ch: char,
        /// Its index among the text's characters (from 0).
        position: usize,
    },
    /// An id is not below the vocabulary's size.
    #[error("token id {id} at position {position} is not below the vocabulary's size {vocab}")]
    UnknownId {
        /// The id.
        id: u32,
        /// Its index in the list (from 0).
        position: usize,
        /// The vocabulary's size.
        vocab: usize,
    },
}

/// The token ids of `text`, one per character: `vocabulary` lists the
/// characters by id.
///
/// # Errors
/// [`TokenError::UnknownCharacter`] for the first character that is not in
/// `vocabulary`, with its position in characters.
pub fn encode(vocabulary: &[char], text: &str) -> Result<Vec<u32>, TokenError> {
    text.chars()
        .enumerate()
        .map(|(position, ch)| {
            vocabulary
                .iter()
                .position(|&v| v == ch)
                .map(|id| id as u32)
                .ok_or(TokenError::UnknownCharacter { ch, position })
        })
        .collect()
}

/// The text of token ids `ids`: `vocabulary` lists the characters by id.
///
/// # Errors
/// [`TokenError::UnknownId`] for the first id past the vocabulary.
pub fn decode(vocabulary: &[char], ids: &[u32]) -> Result<String, TokenError> {
    ids.iter()
        .enumerate()
        .map(|(position, &id)| {
            vocabulary.get(id as usize).copied().ok_or(TokenError::UnknownId {
                id,
                position,
                vocab: vocabulary.len(),
            })
        })
        .collect()
}

impl Model {
    /// [`encode`] with this model's vocabulary.
    ///
    /// # Errors
    /// As [`encode`].
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, TokenError> {
        encode(&self.vocabulary, text)
    }

    /// [`decode`] with this model's vocabulary.
    ///
    /// # Errors
    /// As [`decode`].
    pub fn decode(&self, ids: &[u32]) -> Result<String, TokenError> {
        decode(&self.vocabulary, ids)
    }
}
