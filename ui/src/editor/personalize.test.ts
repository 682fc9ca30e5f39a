import { describe, expect, it } from 'vitest';
import table from '../../../schema/testdata/twins/personalize.json';
import { validateDocument, type DesignDocument, type DesignObject, type ImageObject } from './document';
import { applyPersonalization, collect, fieldsOf, fitPicture, photoWarning, StaleError, type Answer, type Personalization } from './personalize';

// schema/testdata/twins/personalize.json, also read by renderer/design's Go test: the store's preview asks,
// checks and draws exactly what the renderer prints.

const docs = table.documents as unknown as Record<string, DesignDocument>;
const docOf = (name: string): DesignDocument => docs[name]!;
const space = table.space;

/** Objects compared with numbers within 1e-9. */
function expectObjects(got: readonly DesignObject[], want: readonly DesignObject[]) {
  expect(got.map((o) => o.id)).toEqual(want.map((o) => o.id));
  got.forEach((o, i) => {
    const w = want[i] as Record<string, unknown>;
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
      if (typeof v === 'number') expect(Math.abs(v - (w[k] as number)), `${o.id}.${k}`).toBeLessThanOrEqual(1e-9);
      else expect(v, `${o.id}.${k}`).toEqual(w[k]);
    }
    expect(Object.keys(o).sort()).toEqual(Object.keys(w).sort());
  });
}

describe('personalization (schema/testdata/twins/personalize.json)', () => {
  it.each(Object.keys(docs))('has a valid document %s', (name) => {
    expect(validateDocument(docOf(name))).toEqual([]);
  });

  it.each(Object.keys(docs))('asks for the table’s fields of %s', (name) => {
    const got = fieldsOf(docOf(name)).map((f) => ({
      object_id: f.objectId, kind: f.kind, label: f.label, required: f.required, charset: f.charset,
      max_length: f.maxLength, convert_text: f.convertText, options: f.options, sample: f.sample, image: f.image,
    }));
    expect(got).toEqual((table.fields as Record<string, unknown>)[name]);
  });

  it.each(table.collect.map((c) => [c.name, c] as const))('collects: %s', (_, c) => {
    const { personalization, problems } = collect(docOf(c.document), space, c.answers as Record<string, Answer>);
    expect(problems.map((p) => ({ object_id: p.objectId, message: p.message }))).toEqual(c.problems);
    expect(problems.every((p) => p.printSpace === space)).toBe(true);
    if (c.want) expect(personalization).toEqual(c.want);
  });

  it.each(table.apply.map((c) => [c.name, c] as const))('applies: %s', (_, c) => {
    const p = c.personalization as Personalization;
    const doc = docOf(c.document);
    if (c.stale) {
      expect(() => applyPersonalization(doc, space, p)).toThrow(StaleError);
      return;
    }
    const got = applyPersonalization(doc, space, p);
    expect(validateDocument(got)).toEqual([]);
    expectObjects(got.objects, c.want_objects as unknown as DesignObject[]);
  });

  it.each(table.photo_warning.map((c) => [c.name, c] as const))('warns of a photo: %s', (_, c) => {
    expect(photoWarning(docOf(c.document), c.object_id, c.width, c.height)).toBe(c.want);
  });

  it.each(table.fit.map((c) => [c.name, c] as const))('fits: %s', (_, c) => {
    const box: ImageObject = { type: 'image', id: 'box', src: 'u/1/x.png', ...c.box };
    const got = fitPicture(box, c.width, c.height);
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(got[k] - c.want[k]), k).toBeLessThanOrEqual(1e-9);
    }
  });
});
