// Loading what a design document refers to: its images (src, backgroundUrl) and fonts (fontUrl).

import { useEffect, useState } from 'react';
import type { DesignDocument } from './document';
import { loadFontUrl, loadServedFonts } from './fonts';
import type { LoadedImages } from './textNode';

/** How many times a failed image load is tried again (after 1, 2, 4, 8 and 16 seconds). */
const IMAGE_RETRIES = 5;

/**
 * Loads an image. With readable, it is fetched with CORS so that a canvas drawing it can still be read back
 * (the render page); the editor never reads pixels and can show artwork from hosts without CORS.
 */
export function loadImage(url: string, readable = false): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new window.Image();
    if (readable) img.crossOrigin = 'anonymous';
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`image ${url} did not load`));
    img.src = url;
  });
}

/** Every image source of a document: object srcs and text backgrounds. */
export function imageSources(doc: DesignDocument): string[] {
  const out = new Set<string>();
  for (const o of doc.objects) {
    if (o.type === 'image') out.add(o.src);
    else if (o.displayStyle === 'image_background' && o.backgroundUrl) out.add(o.backgroundUrl);
  }
  return [...out];
}

/** Every fontUrl of a document. */
export function fontSources(doc: DesignDocument): string[] {
  return [...new Set(doc.objects.flatMap((o) => (o.type === 'text' && o.fontUrl ? [o.fontUrl] : [])))];
}

/**
 * Loads a document's images and fonts as they appear in it; what has loaded so far is returned, and the
 * canvas redraws as more arrives. A failed image stays undrawn; a failed font is Roboto.
 */
export function useDesignAssets(
  doc: DesignDocument,
  imageUrl: (src: string) => string,
  fontUrl: (src: string) => string,
  onImageLoad?: (src: string, size: { width: number; height: number }) => void,
): { images: LoadedImages; fontFamilies: Record<string, string | null>; fontsVersion: number } {
  const [images, setImages] = useState<LoadedImages>({});
  const [fontFamilies, setFontFamilies] = useState<Record<string, string | null>>({});
  const [fontsVersion, setFontsVersion] = useState(0);
  const srcKey = imageSources(doc).join('\n');
  const fontKey = fontSources(doc).join('\n');

  useEffect(() => {
    let live = true;
    void loadServedFonts().then(() => live && setFontsVersion((v) => v + 1));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    let live = true;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    // A variant the renderer is still making answers 503, an upload still being checked 409: try again
    // a few times, later each time, before leaving the image undrawn (the page reports broken uploads).
    const load = (src: string, attempt: number) => {
      loadImage(imageUrl(src)).then(
        (img) => {
          if (!live) return;
          setImages((prev) => (prev[src] === img ? prev : { ...prev, [src]: img }));
          onImageLoad?.(src, { width: img.naturalWidth, height: img.naturalHeight });
        },
        () => {
          if (!live || attempt >= IMAGE_RETRIES) return;
          const t = setTimeout(() => {
            timers.delete(t);
            load(src, attempt + 1);
          }, 1000 * 2 ** attempt);
          timers.add(t);
        },
      );
    };
    for (const src of srcKey ? srcKey.split('\n') : []) load(src, 0);
    return () => {
      live = false;
      timers.forEach(clearTimeout);
    };
    // imageUrl and onImageLoad are callbacks of the page; the sources decide what to load.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [srcKey]);

  useEffect(() => {
    let live = true;
    for (const src of fontKey ? fontKey.split('\n') : []) {
      void loadFontUrl(src, fontUrl(src)).then((family) => {
        if (!live) return;
        setFontFamilies((prev) => ({ ...prev, [src]: family }));
        setFontsVersion((v) => v + 1);
      });
    }
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fontKey]);

  return { images, fontFamilies, fontsVersion };
}
