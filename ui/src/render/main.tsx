// The fidelity render page (render.html): window.renderDesign draws a design document with the editor's own
// Konva nodes (editor/DesignObjects) at the print size, or at a given width, and answers a PNG data URL. The
// fidelity end-to-end test compares it with the Go renderer's print file of the same document.
// window.mountEditor shows the editor's DesignCanvas instead, for measuring it while dragging.

import type Konva from 'konva';
import { createRoot } from 'react-dom/client';
import { fontSources, imageSources, loadImage } from '../editor/assets';
import { loadFontUrl, loadServedFonts } from '../editor/fonts';
import type { LoadedImages } from '../editor/textNode';
import { EditorHarness } from './EditorHarness';
import { RenderStage } from './RenderStage';
import type { RenderApi } from './api';

const page = window as Window & Partial<RenderApi>;

const container = document.getElementById('render');
if (!container) throw new Error('render.html has no #render element');
const root = createRoot(container);

page.renderDesign = async (doc, sources, width = doc.printSpace.width) => {
  const url = (src: string) => {
    const u = sources[src];
    if (!u) throw new Error(`no URL for source ${src}`);
    return u;
  };
  await loadServedFonts();
  const fontFamilies: Record<string, string | null> = {};
  for (const src of fontSources(doc)) {
    fontFamilies[src] = sources[src] ? await loadFontUrl(src, url(src)) : null;
  }
  const images: LoadedImages = {};
  for (const src of imageSources(doc)) images[src] = await loadImage(url(src), true);
  const stage = await new Promise<Konva.Stage>((done) => {
    root.render(<RenderStage job={{ doc, images, fontFamilies, width, done }} />);
  });
  return stage.toDataURL({ pixelRatio: 1, mimeType: 'image/png' });
};

let mounts = 0;

page.mountEditor = async (doc, sources) => {
  // Loading first (the browser caches the images) means the canvas draws them on its first frames.
  await Promise.all(imageSources(doc).map((src) => loadImage(sources[src] ?? src)));
  const onChange = (d: Parameters<RenderApi['mountEditor']>[0]) => (page.editedDesign = d);
  root.render(<EditorHarness key={++mounts} initial={doc} sources={sources} onChange={onChange} />);
};
