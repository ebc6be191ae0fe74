//! Extension handlers: rules the notation cannot express, written in Rust
//! and called from a move expression as `[1]`..`[9]` (`notation.md` §9).
//!
//! A game file names the handlers it uses in its `[handlers]` table
//! (`1 = "explode"`); the names are looked up in a [`HandlerRegistry`].
//! A handler sees the path's state and answers with zero or more
//! [`Branch`]es: none fails the path, one continues it, several fork it.
//!
//! ```
//! use dagaz::handler::{Branch, Handler, HandlerContext};
//!
//! /// Fails unless the cursor is on the board's edge.
//! struct OnEdge;
//!
//! impl Handler for OnEdge {
//!     fn call(&self, ctx: &HandlerContext, out: &mut Vec<Branch>) {
//!         let topo = &ctx.game.topology;
//!         let inside = topo.all_dirs().iter().all(|d| topo.step(ctx.cursor, *d).is_some());
//!         if !inside {
//!             out.push(Branch::stay(ctx.cursor));
//!         }
//!     }
//! }
//! ```

mod builtin;
mod checks;
mod chu;
mod conversion;
pub use chu::lion_mask;
mod elimination;
mod janggi;
mod jetan;
mod ko;
mod mancala;
mod ranks;
mod rithmomachia;
mod ultima;

use std::collections::BTreeMap;
use std::sync::Arc;

pub use crate::game::extension::{Branch, EndRule, Handler, HandlerContext, PieceOn};

/// Handlers by name, for game files to refer to.
#[derive(Clone, Default)]
pub struct HandlerRegistry {
    handlers: BTreeMap<String, Arc<dyn Handler>>,
    end_rules: BTreeMap<String, Arc<dyn EndRule>>,
}

impl HandlerRegistry {
    /// The handlers that ship with dagaz.
    pub fn builtin() -> HandlerRegistry {
        let mut r = HandlerRegistry::default();
        builtin::register(&mut r);
        checks::register(&mut r);
        mancala::register(&mut r);
        ultima::register(&mut r);
        rithmomachia::register(&mut r);
        janggi::register(&mut r);
        chu::register(&mut r);
        conversion::register(&mut r);
        jetan::register(&mut r);
        elimination::register(&mut r);
        ko::register(&mut r);
        r
    }

    pub fn register(&mut self, name: &str, handler: impl Handler + 'static) {
        self.handlers.insert(name.to_string(), Arc::new(handler));
    }

    pub fn register_end(&mut self, name: &str, rule: impl EndRule + 'static) {
        self.end_rules.insert(name.to_string(), Arc::new(rule));
    }

    /// The handler of this name: a registered one, or one of the built-in
    /// families with an argument (`hand:<Piece>`, `file_free:<Piece>`).
    pub fn get(&self, name: &str) -> Option<Arc<dyn Handler>> {
        self.handlers
            .get(name)
            .cloned()
            .or_else(|| builtin::with_argument(name))
            .or_else(|| checks::with_argument(name))
            .or_else(|| ultima::with_argument(name))
            .or_else(|| rithmomachia::with_argument(name))
            .or_else(|| janggi::with_argument(name))
            .or_else(|| conversion::with_argument(name))
            .or_else(|| ranks::with_argument(name))
    }

    /// The end rule of this name (`Ok(None)`: none such), or why its
    /// options are wrong (`rithmomachia:<options>`).
    pub fn end_rule(&self, name: &str) -> Result<Option<Arc<dyn EndRule>>, String> {
        if let Some(rule) = self.end_rules.get(name) {
            return Ok(Some(rule.clone()));
        }
        rithmomachia::end_rule(name).transpose()
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.handlers.keys().map(String::as_str).chain([
            "hand:<Piece>",
            "file_free:<Piece>",
            "file_free:<Piece>:<N>",
            "other_colour:<Piece>",
            "colour_room:<Piece>:<zone>",
            "coordinate:<Piece>",
            "has_part:<Piece>",
            "not_piece:<Piece>",
            "none_of:<Piece>",
            "some_of:<Piece>,…",
            "not_of:<Piece>,…",
            "aim:<Piece>",
            "place:<Piece>",
            "gate:<Piece>",
            "castle:<Rook>:<king file>:<rook file>",
            "gate_here:<Piece>",
            "outranks:<Piece,…>><Piece,…>…",
        ])
    }

    pub fn end_rule_names(&self) -> impl Iterator<Item = &str> {
        self.end_rules
            .keys()
            .map(String::as_str)
            .chain(["rithmomachia:<options>"])
    }
}
