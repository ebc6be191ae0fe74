//! The front ends' integration tests, compiled as one binary: the `dagaz`
//! command line, the HTTP API against a real `dagaz serve`, and the page
//! in headless Chromium (`#[ignore]`d: `.ci/run` runs them with
//! `--include-ignored` after installing Chromium).

mod browser;
mod cli;
mod cluster;
mod server;
mod server_api;
