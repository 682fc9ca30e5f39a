// The bff's Content-Security-Policy runs no inline script (script-src 'self'): every script of the
// HTML pages Vite builds must be a file.
import { readFileSync, readdirSync } from 'node:fs';

const pages = readdirSync('.').filter((f) => f.endsWith('.html'));

describe('HTML pages', () => {
  it('are found', () => {
    expect(pages).toContain('index.html');
  });
  it.each(pages)('%s has no inline script or handler', (page) => {
    const doc = new DOMParser().parseFromString(readFileSync(page, 'utf8'), 'text/html');
    for (const script of doc.querySelectorAll('script')) {
      expect(script.getAttribute('src'), script.outerHTML).toBeTruthy();
      expect(script.textContent?.trim()).toBe('');
    }
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of el.getAttributeNames()) expect(attr.startsWith('on'), `${page}: ${el.outerHTML}`).toBe(false);
    }
  });
});
