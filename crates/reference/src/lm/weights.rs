//! Reading the model: `model.toml` (its dimensions, vocabulary and tensor
//! table) and `model.bin` (the tensors, little-endian, concatenated) into a
//! [`Model`], with a [`WeightsError`] that names what is wrong.

use serde::Deserialize;
use std::collections::BTreeMap;

/// The version of `model.toml` this reader understands.
pub const FORMAT: u32 = 1;

/// Columns per quantisation block: one `f32` scale for every 32 weights of a
/// row, as in the `gemv-q8` puzzle.
pub const Q8_BLOCK: usize = 32;

/// The dimensions and constants of the model.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Tokens in the vocabulary (one character each).
    pub vocab: usize,
    /// Width of the residual stream.
    pub d_model: usize,
    /// Transformer layers.
    pub layers: usize,
    /// Query heads per layer.
    pub heads: usize,
    /// Key and value heads per layer (grouped-query attention): query head
    /// `h` reads kv head `h / (heads / kv_heads)`.
    pub kv_heads: usize,
    /// Elements of one head vector (even: RoPE rotates pairs).
    pub head_dim: usize,
    /// Width of the SwiGLU MLP's hidden layer.
    pub ffn_hidden: usize,
    /// Positions the model can attend over: the KV cache's capacity.
    pub context: usize,
    /// The `eps` inside every RMSNorm's square root.
    pub eps: f64,
    /// RoPE's base: `θ_i = rope_theta^(−2i / head_dim)` radians per position.
    pub rope_theta: f64,
}

/// A matrix in the `gemv-q8` puzzle's format: `rows` outputs by `cols`
/// inputs, `cols` a multiple of [`Q8_BLOCK`].
#[derive(Debug, Clone, PartialEq)]
pub struct Q8Matrix {
    /// Rows (outputs).
    pub rows: usize,
    /// Columns (inputs).
    pub cols: usize,
    /// `rows × cols / 4` words, row-major; word `k` of row `r` holds the
    /// int8 weights of columns `4k` to `4k + 3`, lowest byte first, in two's
    /// complement.
    pub words: Vec<u32>,
    /// `rows × cols / 32` scales, row-major: `scales[r · cols / 32 + b]` is
    /// the scale of columns `32b` to `32b + 31` of row `r`.
    pub scales: Vec<f32>,
}

impl Q8Matrix {
    /// The int8 weight at row `r`, column `c` (without its scale).
    pub fn weight(&self, r: usize, c: usize) -> i8 {
        (self.words[r * self.cols / 4 + c / 4] >> (8 * (c % 4))) as u8 as i8
    }
}

/// One transformer layer's weights.
#[derive(Debug, Clone, PartialEq)]
pub struct Layer {
    /// The attention RMSNorm's weight: `d_model` elements.
    pub attn_norm: Vec<f32>,
    /// Queries: `heads · head_dim` × `d_model`.
    pub wq: Q8Matrix,
    /// Keys: `kv_heads · head_dim` × `d_model`.
    pub wk: Q8Matrix,
    /// Values: `kv_heads · head_dim` × `d_model`.
    pub wv: Q8Matrix,
    /// Attention output: `d_model` × `heads · head_dim`.
    pub wo: Q8Matrix,
    /// The MLP RMSNorm's weight: `d_model` elements.
    pub ffn_norm: Vec<f32>,
    /// SwiGLU gate: `ffn_hidden` × `d_model`.
    pub w_gate: Q8Matrix,
    /// SwiGLU up projection: `ffn_hidden` × `d_model`.
    pub w_up: Q8Matrix,
    /// SwiGLU down projection: `d_model` × `ffn_hidden`.
    pub w_down: Q8Matrix,
}

/// The whole model, as shipped in `models/generate/`.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    /// Dimensions and constants.
    pub config: Config,
    /// The characters of the vocabulary: token id `i` is `vocabulary[i]`.
    pub vocabulary: Vec<char>,
    /// Token embeddings: `vocab × d_model`, row-major.
    pub embed: Vec<f32>,
    /// The layers, first to last.
    pub layers: Vec<Layer>,
    /// The final RMSNorm's weight: `d_model` elements.
    pub final_norm: Vec<f32>,
    /// The LM head: `vocab` × `d_model`, logits = `lm_head · x`.
    pub lm_head: Q8Matrix,
}

/// What is wrong with a model's files.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WeightsError {
    /// `model.toml` is not TOML of the expected form.
    #[error("model.toml cannot be read: {0}")]
    Manifest(String),
    /// `format` is not [`FORMAT`].
    #[error("model.toml has format {found}; this reader knows format {FORMAT}")]
    Format {
        /// The format the file gives.
        found: u32,
    },
    /// A dimension or constant is out of range.
    #[error("`{field}` is {value}: {want}")]
    Dimension {
        /// The field, e.g. `dims.head_dim`.
        field: &'static str,
        /// Its value.
        value: f64,
        /// What it must be.
        want: &'static str,
    },
    /// The vocabulary string's length is not `dims.vocab`.
    #[error("the vocabulary has {chars} characters but dims.vocab is {vocab}")]
    VocabularyLength {
        /// Characters in `tokenizer.vocabulary`.
        chars: usize,
        /// `dims.vocab`.
        vocab: usize,
    },
    /// A character appears twice in the vocabulary.
    #[error("the vocabulary holds {ch:?} twice")]
    RepeatedCharacter {
        /// The character.
        ch: char,
    },
    /// A tensor the model needs is not in the table.
    #[error("tensor `{name}` is missing from model.toml")]
    MissingTensor {
        /// Its name.
        name: String,
    },
    /// A tensor is listed twice, or is not one the model has.
    #[error("tensor `{name}` {why}")]
    UnexpectedTensor {
        /// Its name.
        name: String,
        /// "is listed twice" or "is not part of this model".
        why: &'static str,
    },
    /// A tensor's element type is not the one its role needs.
    #[error("tensor `{name}` has dtype `{found}`, expected `{want}`")]
    WrongType {
        /// Its name.
        name: String,
        /// The dtype the table gives.
        found: String,
        /// `f32` or `u32`.
        want: &'static str,
    },
    /// A tensor's shape disagrees with the dimensions.
    #[error("tensor `{name}` has shape {found:?}, expected {want:?}")]
    WrongShape {
        /// Its name.
        name: String,
        /// The shape the table gives.
        found: Vec<usize>,
        /// The shape the dimensions imply.
        want: Vec<usize>,
    },
    /// A tensor's byte count is not its shape's (4 bytes an element).
    #[error("tensor `{name}` has {bytes} bytes, but its shape {shape:?} needs {want}")]
    WrongByteLength {
        /// Its name.
        name: String,
        /// The `bytes` the table gives.
        bytes: usize,
        /// Its shape.
        shape: Vec<usize>,
        /// 4 × the product of the shape.
        want: usize,
    },
    /// A tensor's bytes do not lie inside `model.bin`.
    #[error("tensor `{name}` needs bytes {offset}..{end} but model.bin has {file_len}")]
    PastEnd {
        /// Its name.
        name: String,
        /// Its first byte.
        offset: usize,
        /// One past its last byte.
        end: usize,
        /// The length of `model.bin` in bytes.
        file_len: usize,
    },
    /// An `f32` tensor holds an infinity or NaN.
    #[error("tensor `{name}` holds {value} at element {at}")]
    NotFinite {
        /// Its name.
        name: String,
        /// The element's index.
        at: usize,
        /// The value.
        value: f32,
    },
}

#[derive(Deserialize)]
struct Manifest {
    format: u32,
    dims: Dims,
    numbers: Numbers,
    tokenizer: Tokenizer,
    #[serde(default, rename = "tensor")]
    tensors: Vec<Entry>,
}

#[derive(Deserialize)]
struct Dims {
    vocab: usize,
    d_model: usize,
    layers: usize,
    heads: usize,
    kv_heads: usize,
    head_dim: usize,
    ffn_hidden: usize,
    context: usize,
}

#[derive(Deserialize)]
struct Numbers {
    eps: f64,
    rope_theta: f64,
    q8_block: usize,
}

#[derive(Deserialize)]
struct Tokenizer {
    vocabulary: String,
}

#[derive(Deserialize)]
struct Entry {
    name: String,
    dtype: String,
    shape: Vec<usize>,
    offset: usize,
    bytes: usize,
}

/// The checks on the dimensions: each a field, its value, whether it is
/// right, and what it must be.
fn check_config(c: &Config, q8_block: usize) -> Result<(), WeightsError> {
    let sizes = [
        ("dims.vocab", c.vocab),
        ("dims.d_model", c.d_model),
        ("dims.layers", c.layers),
        ("dims.heads", c.heads),
        ("dims.kv_heads", c.kv_heads),
        ("dims.head_dim", c.head_dim),
        ("dims.ffn_hidden", c.ffn_hidden),
        ("dims.context", c.context),
    ];
    if let Some((field, value)) = sizes.into_iter().find(|s| s.1 > MAX_DIM) {
        return Err(WeightsError::Dimension { field, value: value as f64, want: "at most 65536" });
    }
    let hq = c.heads * c.head_dim;
    let checks: [(&'static str, f64, bool, &'static str); 11] = [
        ("numbers.q8_block", q8_block as f64, q8_block == Q8_BLOCK, "32"),
        ("dims.vocab", c.vocab as f64, c.vocab >= 1, "at least 1"),
        ("dims.layers", c.layers as f64, c.layers >= 1, "at least 1"),
        ("dims.context", c.context as f64, c.context >= 1, "at least 1"),
        (
            "dims.d_model",
            c.d_model as f64,
            c.d_model.is_multiple_of(32) && c.d_model > 0,
            WHOLE_BLOCKS,
        ),
        (
            "dims.ffn_hidden",
            c.ffn_hidden as f64,
            c.ffn_hidden.is_multiple_of(32) && c.ffn_hidden > 0,
            WHOLE_BLOCKS,
        ),
        (
            "dims.head_dim",
            c.head_dim as f64,
            c.head_dim.is_multiple_of(2) && c.head_dim > 0,
            "even, from 2",
        ),
        (
            "dims.kv_heads",
            c.kv_heads as f64,
            c.kv_heads > 0 && c.heads.is_multiple_of(c.kv_heads),
            "from 1, dividing dims.heads",
        ),
        (
            "dims.heads",
            hq as f64,
            hq.is_multiple_of(32) && hq > 0,
            "such that heads · head_dim is a multiple of 32",
        ),
        ("numbers.eps", c.eps, c.eps.is_finite() && c.eps > 0.0, "finite, above 0"),
        (
            "numbers.rope_theta",
            c.rope_theta,
            c.rope_theta.is_finite() && c.rope_theta > 1.0,
            "finite, above 1",
        ),
    ];
    match checks.into_iter().find(|check| !check.2) {
        Some((field, value, _, want)) => Err(WeightsError::Dimension { field, value, want }),
        None => Ok(()),
    }
}

/// The largest dimension accepted, so that no product of two overflows.
const MAX_DIM: usize = 1 << 16;

const WHOLE_BLOCKS: &str = "a multiple of 32 (a gemv input: whole blocks of 32), from 32";

/// The table of tensors, and the bytes they point into.
struct Tensors<'a> {
    entries: BTreeMap<&'a str, &'a Entry>,
    bin: &'a [u8],
    used: Vec<&'a str>,
}

impl<'a> Tensors<'a> {
    /// The bytes of tensor `name`, after checking its dtype, shape, byte
    /// count and place in the file.
    fn bytes(
        &mut self,
        name: &str,
        dtype: &'static str,
        want: &[usize],
    ) -> Result<&'a [u8], WeightsError> {
        let entry = *self
            .entries
            .get(name)
            .ok_or_else(|| WeightsError::MissingTensor { name: name.to_string() })?;
        self.used.push(&entry.name);
        if entry.dtype != dtype {
            return Err(WeightsError::WrongType {
                name: name.to_string(),
                found: entry.dtype.clone(),
                want: dtype,
            });
        }
        if entry.shape != want {
            return Err(WeightsError::WrongShape {
                name: name.to_string(),
                found: entry.shape.clone(),
                want: want.to_vec(),
            });
        }
        let need = 4 * want.iter().product::<usize>();
        if entry.bytes != need {
            return Err(WeightsError::WrongByteLength {
                name: name.to_string(),
                bytes: entry.bytes,
                shape: entry.shape.clone(),
                want: need,
            });
        }
        let end = entry.offset.saturating_add(entry.bytes);
        self.bin.get(entry.offset..end).ok_or_else(|| WeightsError::PastEnd {
            name: name.to_string(),
            offset: entry.offset,
            end,
            file_len: self.bin.len(),
        })
    }

    /// An `f32` tensor of shape `shape`, every element finite.
    fn f32s(&mut self, name: &str, shape: &[usize]) -> Result<Vec<f32>, WeightsError> {
        let values: Vec<f32> = words(self.bytes(name, "f32", shape)?).map(f32::from_bits).collect();
        match values.iter().position(|v| !v.is_finite()) {
            Some(at) => {
                Err(WeightsError::NotFinite { name: name.to_string(), at, value: values[at] })
            }
            None => Ok(values),
        }
    }

    /// A quantised matrix: `name` (`u32`, `rows × cols / 4`) and
    /// `name.scales` (`f32`, `rows × cols / 32`).
    fn q8(&mut self, name: &str, rows: usize, cols: usize) -> Result<Q8Matrix, WeightsError> {
        let words = words(self.bytes(name, "u32", &[rows, cols / 4])?).collect();
        let scales = self.f32s(&format!("{name}.scales"), &[rows, cols / Q8_BLOCK])?;
        Ok(Q8Matrix { rows, cols, words, scales })
    }
}

/// Little-endian 32-bit words of `bytes` (whose length is a multiple of 4).
fn words(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl Model {
    /// Reads a model from the text of `model.toml` and the bytes of
    /// `model.bin`. Every tensor the dimensions call for must be in the
    /// table with dtype, shape and byte count to match, inside `model.bin`,
    /// and no other tensor may be listed.
    ///
    /// # Errors
    /// A [`WeightsError`] naming the first thing wrong: the TOML, the format,
    /// a dimension, the vocabulary, or a tensor.
    pub fn from_files(manifest: &str, bin: &[u8]) -> Result<Model, WeightsError> {
        let m: Manifest =
            toml::from_str(manifest).map_err(|e| WeightsError::Manifest(e.to_string()))?;
        if m.format != FORMAT {
            return Err(WeightsError::Format { found: m.format });
        }
        let d = &m.dims;
        let config = Config {
            vocab: d.vocab,
            d_model: d.d_model,
            layers: d.layers,
            heads: d.heads,
            kv_heads: d.kv_heads,
            head_dim: d.head_dim,
            ffn_hidden: d.ffn_hidden,
            context: d.context,
            eps: m.numbers.eps,
            rope_theta: m.numbers.rope_theta,
        };
        check_config(&config, m.numbers.q8_block)?;
        let vocabulary: Vec<char> = m.tokenizer.vocabulary.chars().collect();
        if vocabulary.len() != config.vocab {
            return Err(WeightsError::VocabularyLength {
                chars: vocabulary.len(),
                vocab: config.vocab,
            });
        }
        for (i, &ch) in vocabulary.iter().enumerate() {
            if vocabulary[..i].contains(&ch) {
                return Err(WeightsError::RepeatedCharacter { ch });
            }
        }
        let mut entries = BTreeMap::new();
        for e in &m.tensors {
            if entries.insert(e.name.as_str(), e).is_some() {
                return Err(WeightsError::UnexpectedTensor {
                    name: e.name.clone(),
                    why: "is listed twice",
                });
            }
        }
        let mut t = Tensors { entries, bin, used: Vec::new() };
        let (dm, hq, hk) =
            (config.d_model, config.heads * config.head_dim, config.kv_heads * config.head_dim);
        let embed = t.f32s("embed", &[config.vocab, dm])?;
        let mut layers = Vec::new();
        for i in 0..config.layers {
            let name = |n: &str| format!("layers.{i}.{n}");
            layers.push(Layer {
                attn_norm: t.f32s(&name("attn_norm"), &[dm])?,
                wq: t.q8(&name("wq"), hq, dm)?,
                wk: t.q8(&name("wk"), hk, dm)?,
                wv: t.q8(&name("wv"), hk, dm)?,
                wo: t.q8(&name("wo"), dm, hq)?,
                ffn_norm: t.f32s(&name("ffn_norm"), &[dm])?,
                w_gate: t.q8(&name("w_gate"), config.ffn_hidden, dm)?,
                w_up: t.q8(&name("w_up"), config.ffn_hidden, dm)?,
                w_down: t.q8(&name("w_down"), dm, config.ffn_hidden)?,
            });
        }
        let final_norm = t.f32s("final_norm", &[dm])?;
        let lm_head = t.q8("lm_head", config.vocab, dm)?;
        if let Some(extra) = m.tensors.iter().find(|e| !t.used.contains(&e.name.as_str())) {
            return Err(WeightsError::UnexpectedTensor {
                name: extra.name.clone(),
                why: "is not part of this model",
            });
        }
        Ok(Model { config, vocabulary, embed, layers, final_norm, lm_head })
    }

    /// The embedding of token `id`: `d_model` elements (row `id` of
    /// [`Model::embed`]).
    pub fn embedding(&self, id: usize) -> &[f32] {
        let d = self.config.d_model;
        &self.embed[id * d..(id + 1) * d]
    }
}
