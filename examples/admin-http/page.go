package main

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"net/http"
)

// pageHTML is the admin page: plain HTML with one inline style and one
// inline script, no build step.
//
//go:embed page.html
var pageHTML []byte

// pagePolicy lets the page run its own script and style, found by their
// hashes, and nothing else: no other script, no inline handler, no frame
// around it, no form sent anywhere, requests to this origin only. Text
// from a skill that reached the page as markup could run nothing.
var pagePolicy = "default-src 'none'; script-src " + inlineHash("script") + "; style-src " + inlineHash("style") +
	"; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// inlineHash returns the CSP source of the page's inline element tag, by
// the SHA-256 of its text.
func inlineHash(tag string) string {
	_, after, _ := bytes.Cut(pageHTML, []byte("<"+tag+">"))
	text, _, _ := bytes.Cut(after, []byte("</"+tag+">"))
	sum := sha256.Sum256(text)
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// page serves the admin page. It reaches the API by relative URLs, so it
// works under any prefix, and the browser sends the token with each
// request as it did for the page.
func (s *server) page(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pagePolicy)
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	w.Write(pageHTML)
}
