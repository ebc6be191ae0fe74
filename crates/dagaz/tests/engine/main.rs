//! The engine's integration tests, compiled as one binary: one file per
//! game family or feature, sharing the helpers of [`common`]. The larger
//! published perft counts are `#[ignore]`d here and run by `.ci/run` with
//! `--include-ignored` (see `perft`, `draughts_perft`, `family_perft`).

mod common;

mod ai;
mod alignment;
mod betza;
mod burning_and_ranks;
mod chess_rules;
mod chess_variants;
mod chu_shogi;
mod draughts_perft;
mod draughts_rules;
mod errors;
mod family_perft;
mod fanorona;
mod flips;
mod four_player;
mod fsf_import;
mod fsf_positions;
mod fuzz;
mod handler_api;
mod janggi;
mod jetan;
mod jungle;
mod ko_rule;
mod ko_shogi;
mod large_chess;
mod large_shogi;
mod layers;
mod lishogi_perft;
mod mancala;
mod neutral;
mod notation;
mod perft;
mod positions;
mod properties;
mod raumschach;
mod records;
mod rithmomachia;
mod senterej;
mod shatranj;
mod shuffle;
mod stacks;
mod taikyoku;
mod turkish;
mod ultima;
mod zrf;
mod zrf_turns;
