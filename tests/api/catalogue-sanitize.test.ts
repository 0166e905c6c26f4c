import { describe, expect, it } from 'vitest';
import { sanitizeDescription } from '../../api/catalogue/sanitize.js';

/**
 * The allow-list that cleans product descriptions on save, against the usual
 * ways script gets into HTML: tags, event handlers, URL schemes hidden by case,
 * entities, whitespace or protocol-relative forms, and markup that a browser
 * parses differently from a naive filter.
 */
const VECTORS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href="&#x6A;avascript&#x3A;alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="java\tscript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example">x</a>',
  '<svg onload=alert(1)><circle/></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<form action="https://evil.example"><input name=p><button>go</button></form>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p onclick="alert(1)" onmouseover=alert(1)>x</p>',
  '<style>@import "https://evil.example/x.css";</style>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
];

describe('description sanitizer', () => {
  for (const html of VECTORS) {
    it(`defuses ${html.slice(0, 60)}`, () => {
      const out = sanitizeDescription(html).toLowerCase();
      expect(out).not.toMatch(
        /<script|<iframe|<object|<embed|<form|<input|<svg|<math|<style|<meta|<base|<template/,
      );
      expect(out).not.toMatch(/\son[a-z]+\s*=/);
      expect(out).not.toMatch(/(java|vb)script:|data:|style=/);
      expect(out).not.toMatch(/href="\/\//);
    });
  }

  it('keeps formatting, http(s) and mail links (made safe to open in a new tab) and images', () => {
    const out = sanitizeDescription(
      '<h3>Care</h3><p><strong>Keep</strong> <em>cool</em></p><ul><li>a</li></ul>' +
        '<a href="https://shop.example/x" target="_blank">more</a> <a href="mailto:a@b.co">mail</a>' +
        '<img src="https://shop.example/i.webp" alt="cake">',
    );
    expect(out).toBe(
      '<h3>Care</h3><p><strong>Keep</strong> <em>cool</em></p><ul><li>a</li></ul>' +
        '<a href="https://shop.example/x" target="_blank" rel="noopener noreferrer">more</a> ' +
        '<a href="mailto:a@b.co" rel="noopener noreferrer">mail</a>' +
        '<img src="https://shop.example/i.webp" alt="cake" />',
    );
  });

  it('leaves nothing of a description that was only script (the routes then refuse it)', () => {
    expect(sanitizeDescription('<script>alert(1)</script>  <style>p{}</style>')).toBe('');
  });
});
