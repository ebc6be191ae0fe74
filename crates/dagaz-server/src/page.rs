//! The page, built into the binary: one HTML file, one ES module, one
//! style sheet. No build step.

use axum::http::header;
use axum::response::{Html, IntoResponse};

pub async fn index() -> Html<&'static str> {
    Html(include_str!("page/index.html"))
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page/app.js"),
    )
}

pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
}
