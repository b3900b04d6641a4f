//! The shape of an operation's configuration: what each field holds, described once by the
//! config struct's Rust types ([`Describe`]) and the few facts no type says (bounds, a
//! default, whether it is required), from which validation (`check_config`), the OpenAPI
//! schemas ([`super::schema`]) and the TypeScript types ([`super::typescript`]) are derived.

use indexmap::IndexMap;
use serde_json::{Map, Value};

/// What a JSON value must be.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// Any JSON value.
    Any,
    /// A string.
    String,
    /// `true` or `false`.
    Boolean,
    /// An integer (bounds in the field's [`Extra`]).
    Integer,
    /// A number.
    Number,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// An array of this shape.
    Array(Box<Shape>),
    /// An object of arbitrary keys whose values have this shape.
    Map(Box<Shape>),
    /// An object with these fields; other keys are kept and reported as unknown.
    Object(Vec<Field>),
    /// An object chosen by its `type` (`noun` names it in messages: "a transform"): the named
    /// variants are checked, others pass through.
    Tagged {
        /// What one is called in messages.
        noun: &'static str,
        /// The checked variants by their `type`.
        variants: Vec<(&'static str, Shape)>,
    },
    /// A predicate: an object with a string `type` (`docs/pipeline.md`, "Predicates"); its
    /// inside is checked by the engine (`jobgraph-core`).
    Predicate,
    /// Grok rules: an array of strings, or one string with a rule per line.
    GrokRules,
}

impl Shape {
    /// How validation names the shape in its messages: "a string", "an array of strings"…
    pub fn expected(&self) -> String {
        match self {
            Shape::Any => "any JSON value".into(),
            Shape::String => "a string".into(),
            Shape::Boolean => "a boolean".into(),
            Shape::Integer => "an integer".into(),
            Shape::Number => "a number".into(),
            Shape::Enum(values) => {
                let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
                format!("one of {}", quoted.join(", "))
            }
            Shape::Array(item) => format!("an array of {}", plural(&item.expected())),
            Shape::Map(_) | Shape::Object(_) | Shape::Tagged { .. } => "an object".into(),
            Shape::Predicate => {
                "a predicate (an object {type, …}, e.g. {\"type\": \"datadog-query\", \"query\": \"level:error\"})".into()
            }
            Shape::GrokRules => {
                "an array of strings (one `RuleName pattern` per item) or a string".into()
            }
        }
    }
}

/// "a string" → "strings" for "an array of strings".
fn plural(expected: &str) -> String {
    let bare = expected
        .strip_prefix("an ")
        .or_else(|| expected.strip_prefix("a "))
        .unwrap_or(expected);
    match bare {
        "any JSON value" => "JSON values".into(),
        "object" => "objects".into(),
        "string" => "strings".into(),
        "boolean" => "booleans".into(),
        "integer" => "integers".into(),
        "number" => "numbers".into(),
        other => format!("items that are {other}"),
    }
}

/// One field of a configuration object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// Its name on the wire (`camelCase`).
    pub name: &'static str,
    /// What it holds.
    pub shape: Shape,
    /// Facts no type says: required, bounds, default.
    pub extra: Extra,
    /// Its documentation (the struct field's doc comment, its lines joined).
    pub doc: String,
}

/// Facts of a field that its Rust type does not say.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Extra {
    /// The field must be present.
    pub required: bool,
    /// Smallest number allowed (numbers), or fewest items (arrays), or shortest length
    /// (strings, in characters).
    pub min: Option<f64>,
    /// Largest number allowed, or most items, or longest length.
    pub max: Option<f64>,
    /// The value the service uses when the field is absent, as JSON text.
    pub default: Option<&'static str>,
    /// A shape that overrides the Rust type's (a predicate held as a JSON value).
    pub predicate: bool,
    /// The JSON Schema `format` of a string (`date-time`: an ISO 8601 time).
    pub format: Option<&'static str>,
}

impl Extra {
    /// No extra facts.
    pub const fn new() -> Self {
        Extra {
            required: false,
            min: None,
            max: None,
            default: None,
            predicate: false,
            format: None,
        }
    }
    /// The format of a string (`date-time`, `duration`).
    pub const fn format(mut self, format: &'static str) -> Self {
        self.format = Some(format);
        self
    }
    /// The field must be present.
    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }
    /// A lower bound.
    pub const fn min(mut self, min: f64) -> Self {
        self.min = Some(min);
        self
    }
    /// An upper bound.
    pub const fn max(mut self, max: f64) -> Self {
        self.max = Some(max);
        self
    }
    /// The value used when absent (JSON text).
    pub const fn default(mut self, json: &'static str) -> Self {
        self.default = Some(json);
        self
    }
    /// The field holds a predicate.
    pub const fn predicate(mut self) -> Self {
        self.predicate = true;
        self
    }
}

/// A Rust type that says what JSON it holds. Implemented for the configuration's building
/// blocks; [`config!`](crate::config) implements it for each configuration struct.
pub trait Describe {
    /// The shape of its JSON.
    fn shape() -> Shape;
    /// The smallest value its type can hold (0 for unsigned integers).
    fn min() -> Option<f64> {
        None
    }
    /// Whether this value is absent (an `Option`'s `None`): it is then not serialized.
    fn absent(&self) -> bool {
        false
    }
}

macro_rules! describe_as {
    ($shape:expr => $($ty:ty),*) => {
        $(impl Describe for $ty {
            fn shape() -> Shape {
                $shape
            }
        })*
    };
}
describe_as!(Shape::String => String);
describe_as!(Shape::Boolean => bool);
describe_as!(Shape::Integer => i32, i64);
macro_rules! describe_unsigned {
    ($($ty:ty),*) => {
        $(impl Describe for $ty {
            fn shape() -> Shape {
                Shape::Integer
            }
            fn min() -> Option<f64> {
                Some(0.0)
            }
        })*
    };
}
describe_unsigned!(u8, u16, u32, u64);
describe_as!(Shape::Number => f64);
describe_as!(Shape::Any => Value);
describe_as!(Shape::Map(Box::new(Shape::Any)) => Map<String, Value>);
describe_as!(Shape::GrokRules => crate::GrokRules);

impl<T: Describe> Describe for Option<T> {
    fn shape() -> Shape {
        T::shape()
    }
    fn min() -> Option<f64> {
        T::min()
    }
    fn absent(&self) -> bool {
        self.is_none()
    }
}

impl<T: Describe> Describe for Vec<T> {
    fn shape() -> Shape {
        Shape::Array(Box::new(T::shape()))
    }
}

impl<T: Describe> Describe for IndexMap<String, T> {
    fn shape() -> Shape {
        Shape::Map(Box::new(T::shape()))
    }
}

/// The field list of a configuration: builds each [`Field`] from its type and extras.
#[doc(hidden)]
pub fn field<T: Describe>(name: &'static str, mut extra: Extra, doc: &'static str) -> Field {
    if extra.min.is_none() {
        extra.min = T::min();
    }
    let shape = if extra.predicate {
        Shape::Predicate
    } else {
        T::shape()
    };
    Field {
        name,
        shape,
        extra,
        // Lines joined; brackets escaped for rustdoc (`\[`) are plain text here.
        doc: doc
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
            .replace("\\[", "[")
            .replace("\\]", "]"),
    }
}

/// Declares a configuration struct and its [`Describe`] implementation from one list of
/// fields: each field's doc comment, its wire name, its extras ([`Extra`]'s methods) and its
/// Rust name and type. Every field has a default when absent (its type's `Default`), since a
/// missing required field is validation's to report; `None` fields are not serialized.
///
/// ```
/// use jobgraph_model::config;
/// use jobgraph_model::ops::{Describe, Shape};
/// config! {
///     /// A sampler's settings.
///     pub struct Sampler {
///         /// Events per second.
///         "maxAllowedRate" [required, min(0.0)] => max_allowed_rate: u64,
///         /// Bursts allowed.
///         "maxBurstLimit" [] => max_burst_limit: Option<u64>,
///     }
/// }
/// let Shape::Object(fields) = Sampler::shape() else { unreachable!() };
/// assert_eq!(fields[0].name, "maxAllowedRate");
/// assert!(fields[0].extra.required && !fields[1].extra.required);
/// let s: Sampler = serde_json::from_str(r#"{"maxAllowedRate": 5}"#).unwrap();
/// assert_eq!(serde_json::to_string(&s).unwrap(), r#"{"maxAllowedRate":5}"#);
/// ```
#[macro_export]
macro_rules! config {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $(
                $(#[doc = $fdoc:literal])*
                $wire:literal [$($key:ident $(($($arg:expr),*))?),*] => $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
        pub struct $name {
            $(
                $(#[doc = $fdoc])*
                #[serde(rename = $wire, default, skip_serializing_if = "jobgraph_model::ops::Describe::absent")]
                pub $field: $ty,
            )*
        }

        impl $crate::ops::Describe for $name {
            fn shape() -> $crate::ops::Shape {
                $crate::ops::Shape::Object(vec![$(
                    $crate::ops::shape::field::<$ty>(
                        $wire,
                        $crate::ops::Extra::new()$(.$key($($($arg),*)?))*,
                        $crate::doc_text!(concat!($($fdoc, "\n"),*)),
                    )
                ),*])
            }
        }
    };
}

/// Declares a string enumeration of the wire (`"ASCENDING"`…) with its [`Describe`]
/// implementation; its first variant is its `Default`.
///
/// ```
/// use jobgraph_model::wire_enum;
/// use jobgraph_model::ops::{Describe, Shape};
/// wire_enum! {
///     /// Order of events.
///     pub enum Order { Ascending = "ASCENDING", Descending = "DESCENDING" }
/// }
/// assert_eq!(Order::shape(), Shape::Enum(&["ASCENDING", "DESCENDING"]));
/// assert_eq!(serde_json::to_string(&Order::Descending).unwrap(), "\"DESCENDING\"");
/// ```
#[macro_export]
macro_rules! wire_enum {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident { $first:ident = $first_wire:literal $(, $variant:ident = $wire:literal)* $(,)? }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            #[doc = concat!("`", $first_wire, "`")]
            #[default]
            #[serde(rename = $first_wire)]
            $first,
            $(
                #[doc = concat!("`", $wire, "`")]
                #[serde(rename = $wire)]
                $variant,
            )*
        }

        impl $crate::ops::Describe for $name {
            fn shape() -> $crate::ops::Shape {
                $crate::ops::Shape::Enum(&[$first_wire $(, $wire)*])
            }
        }
    };
}

/// Declares an object chosen by its `type` (a serde enum tagged by `type`, each variant a
/// [`config!`](crate::config) struct) with its [`Describe`] implementation; its first variant
/// is its `Default`.
///
/// ```
/// use jobgraph_model::{config, tagged};
/// use jobgraph_model::ops::{Describe, Shape};
/// config! {
///     /// Keep everything.
///     pub struct Constant {}
/// }
/// config! {
///     /// Keep one in `base`.
///     pub struct Logarithmic {
///         /// The base.
///         "base" [min(2.0)] => base: Option<u32>,
///     }
/// }
/// tagged! {
///     /// How to sample.
///     pub enum Sampling ("a sampling") {
///         Constant = "constant" (Constant),
///         Logarithmic = "logarithmic" (Logarithmic),
///     }
/// }
/// let s: Sampling = serde_json::from_str(r#"{"type": "logarithmic", "base": 3}"#).unwrap();
/// assert_eq!(s, Sampling::Logarithmic(Logarithmic { base: Some(3) }));
/// assert!(matches!(Sampling::shape(), Shape::Tagged { noun: "a sampling", .. }));
/// ```
#[macro_export]
macro_rules! tagged {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident ($noun:literal) {
            $first:ident = $first_wire:literal ($first_ty:ty)
            $(, $variant:ident = $wire:literal ($ty:ty))* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "type")]
        pub enum $name {
            #[doc = concat!("`", $first_wire, "`")]
            #[serde(rename = $first_wire)]
            $first($first_ty),
            $(
                #[doc = concat!("`", $wire, "`")]
                #[serde(rename = $wire)]
                $variant($ty),
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name::$first(Default::default())
            }
        }

        impl $crate::ops::Describe for $name {
            fn shape() -> $crate::ops::Shape {
                $crate::ops::Shape::Tagged {
                    noun: $noun,
                    variants: vec![
                        ($first_wire, <$first_ty as $crate::ops::Describe>::shape())
                        $(, ($wire, <$ty as $crate::ops::Describe>::shape()))*
                    ],
                }
            }
        }
    };
}

/// Documentation text of the catalog (summaries, examples, field docs): the text itself with
/// the feature `docs` (on by default), empty without it, so that a build that only validates
/// (the npm package's module) does not carry the catalog's prose.
#[doc(hidden)]
#[macro_export]
macro_rules! doc_text {
    ($text:expr) => {
        if cfg!(feature = "docs") { $text } else { "" }
    };
}
