//! A buffer's initial contents: given, or generated on first use from a
//! [`Recipe`]. Performance cases hold millions of elements; generating them
//! lazily keeps them out of memory (and out of the site's start-up) until
//! the case runs. Contents serialise as their values or their recipe, never
//! as generated values, so the site's baked puzzle set stays small.

use crate::format::{BufferInit, ElementType};
use gpu_puzzles_values::Values;
use serde::{Deserialize, Serialize};
use std::sync::{Arc, OnceLock};

/// How generated contents are made.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Recipe {
    /// Zeros of this type: a performance case's outputs.
    Zeros(ElementType),
    /// A case's `buffers.<name>` entry for a buffer of this type, already
    /// checked by the loader: a performance case's inputs.
    Init(BufferInit, ElementType),
}

impl Recipe {
    /// The `len` values this recipe makes.
    fn make(&self, len: usize) -> Values {
        match self {
            Recipe::Zeros(element) => Values::zeros(*element, len),
            Recipe::Init(init, element) => crate::generate::initial_values(init, *element)
                .expect("the loader checked this recipe"),
        }
    }
}

/// A buffer's initial contents, dereferencing to [`Values`]: given, or
/// generated from a [`Recipe`] on first access. Clones share the generated
/// values.
#[derive(Clone, Serialize, Deserialize)]
#[serde(from = "Wire", into = "Wire")]
pub struct Contents {
    cell: Arc<OnceLock<Values>>,
    recipe: Option<Arc<Recipe>>,
    len: usize,
}

/// What [`Contents`] serialise as.
#[derive(Serialize, Deserialize)]
enum Wire {
    Given(Values),
    Generated { len: usize, recipe: Recipe },
}

impl From<Wire> for Contents {
    fn from(w: Wire) -> Self {
        match w {
            Wire::Given(v) => v.into(),
            Wire::Generated { len, recipe } => Contents::generated(len, recipe),
        }
    }
}

impl From<Contents> for Wire {
    fn from(c: Contents) -> Self {
        match c.recipe {
            Some(recipe) => Wire::Generated { len: c.len, recipe: (*recipe).clone() },
            None => Wire::Given((*c).clone()),
        }
    }
}

impl Contents {
    /// Contents of `len` elements made by `recipe` on first access.
    pub fn generated(len: usize, recipe: Recipe) -> Self {
        Self { cell: Arc::new(OnceLock::new()), recipe: Some(Arc::new(recipe)), len }
    }

    /// Contents already made by `recipe` (`values` is what it makes): they
    /// serialise as the recipe, which is far smaller than the values.
    pub fn made(values: Values, recipe: Recipe) -> Self {
        Self {
            len: values.len(),
            cell: Arc::new(OnceLock::from(values)),
            recipe: Some(Arc::new(recipe)),
        }
    }

    /// Number of elements, known without generating them.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True once the values exist (always, for given contents).
    pub fn is_generated(&self) -> bool {
        self.cell.get().is_some()
    }
}

impl From<Values> for Contents {
    fn from(v: Values) -> Self {
        let len = v.len();
        Self { cell: Arc::new(OnceLock::from(v)), recipe: None, len }
    }
}

impl std::ops::Deref for Contents {
    type Target = Values;
    fn deref(&self) -> &Values {
        let v = self.cell.get_or_init(|| {
            self.recipe.as_ref().expect("contents without values have a recipe").make(self.len)
        });
        debug_assert_eq!(v.len(), self.len, "a recipe gave a different length than declared");
        v
    }
}

impl PartialEq for Contents {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Contents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.cell.get() {
            Some(v) => v.fmt(f),
            None => f.write_str("Contents(not generated yet)"),
        }
    }
}
