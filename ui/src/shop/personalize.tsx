// The personalization preview of a store's product page (docs/personalization.md): the buyer's texts, choices and
// photo drawn with the editor's own Konva nodes (editor/DesignObjects) over the product's base mockup (the mockup
// without the buyer's objects), warped onto the print area, at every keystroke. The page works without it: the
// form posts the same fields, and the server checks them with the same rules (editor/personalize is their twin).

import { createRoot } from 'react-dom/client';
import { isCustomObject, type DesignDocument } from '../editor/document';
import { createDocs, drawnDocument, readAnswers, showMessages, type FieldEl, type Photo, type PreviewData } from './form';
import { Preview } from './Preview';

function start() {
  const dataEl = document.getElementById('pz-data');
  const form = document.getElementById('pz-fields');
  if (!dataEl || !form) return;
  const data = JSON.parse(dataEl.textContent ?? 'null') as PreviewData | null;
  if (!data || data.designs.length === 0) return;
  const fields: FieldEl[] = [...form.querySelectorAll<HTMLElement>('.pz-field')].map((el) => ({
    el,
    space: el.dataset.pzSpace ?? '',
    objectId: el.dataset.pzObject ?? '',
    kind: el.dataset.pzKind ?? '',
  }));
  const photos = new Map<string, Photo>();
  const touched = new Set<HTMLElement>();
  const shown = data.designs.find((d) => d.print_space === data.mockup?.print_space) ?? null;
  const custom = (doc: DesignDocument): DesignDocument => ({ ...doc, objects: doc.objects.filter(isCustomObject) });
  const docs = shown ? createDocs(custom(drawnDocument(shown.doc, shown.print_space, {}))) : null;

  const update = () => {
    const answers = readAnswers(fields, photos);
    showMessages(fields, data, answers, photos, touched);
    if (shown && docs) docs.set(custom(drawnDocument(shown.doc, shown.print_space, answers.get(shown.print_space) ?? {})));
  };
  form.addEventListener('input', (event) => {
    const field = (event.target as HTMLElement).closest<HTMLElement>('.pz-field');
    if (field) touched.add(field);
    update();
  });
  form.addEventListener('change', (event) => {
    const input = event.target as HTMLInputElement;
    const field = input.closest<HTMLElement>('.pz-field');
    if (!field || input.type !== 'file') return update();
    const key = `${field.dataset.pzSpace ?? ''}\n${field.dataset.pzObject ?? ''}`;
    const file = input.files?.[0];
    const old = photos.get(key);
    if (old) URL.revokeObjectURL(old.url);
    photos.delete(key);
    if (!file) return update();
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      photos.set(key, { url, width: img.naturalWidth, height: img.naturalHeight });
      update();
    };
    img.onerror = () => update();
    img.src = url;
  });
  update();

  const image = document.getElementById('pz-mockup') as HTMLImageElement | null;
  const stage = document.getElementById('pz-stage');
  if (!docs || !data.mockup || !image || !stage) return;
  // The base mockup shows the product without the buyer's objects, which the preview draws instead.
  image.src = data.mockup.base;
  const host = document.createElement('div');
  host.setAttribute('aria-hidden', 'true');
  host.dataset.pzPreview = '';
  stage.appendChild(host);
  const mount = () => createRoot(host).render(<Preview docs={docs} data={data} image={image} />);
  if (image.complete && image.naturalWidth > 0) mount();
  else image.addEventListener('load', mount, { once: true });
}

start();
