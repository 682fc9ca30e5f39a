import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Image,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { Charset, Choice, DesignObject, Input } from '../editor/document';
import { DEFAULT_LABELS, checkTyped } from '../editor/personalize';
import { LIMITS } from '../editor/document';

/** A picture a buyer may be offered: a blob key with its natural size, a name and a thumbnail. */
export interface PictureChoice {
  src: string;
  width: number;
  height: number;
  label: string;
  thumbnail: string;
}

interface InputPanelProps {
  /** The selected custom object. */
  object: DesignObject;
  /** The pictures a picture dropdown may offer (the seller's artworks and cliparts). */
  pictures: readonly PictureChoice[];
  onChange: (input: Input | undefined) => void;
}

const CHARSETS: { value: Charset; label: string }[] = [
  { value: '', label: 'Any characters' },
  { value: 'letters', label: 'Letters and spaces' },
  { value: 'alphanumeric', label: 'Letters, digits and spaces' },
  { value: 'digits', label: 'Digits only' },
];

/** The name of a picture from its file name, without the extension. */
function nameOf(label: string): string {
  return label.replace(/\.[A-Za-z0-9]+$/, '').slice(0, LIMITS.maxIdLength) || 'Picture';
}

/**
 * How the buyer fills the selected custom object (docs/personalization.md): the label they read, and for a text
 * typed words (required or not, the characters allowed) or a list of words to choose from; for an image an uploaded
 * photo or a list of pictures.
 */
export function InputPanel({ object, pictures, onChange }: InputPanelProps) {
  const image = object.type === 'image';
  const input: Input = object.input ?? { kind: image ? 'image' : 'text' };
  const dropdown = input.kind === 'dropdown';
  const fallbackLabel = dropdown ? DEFAULT_LABELS.pick : image ? DEFAULT_LABELS.photo : DEFAULT_LABELS.text;
  const maxLength = object.type === 'text' ? (object.maxLength ?? LIMITS.maxTextLength) : 0;
  const options = input.options ?? [];
  const set = (patch: Partial<Input>) => onChange({ ...input, ...patch });

  const switchKind = (kind: string) => {
    if (kind === input.kind) return;
    const base = { label: input.label };
    if (kind !== 'dropdown') return onChange({ ...base, kind: kind as Input['kind'] });
    // A list starts with what the object shows now, so the document stays valid.
    if (object.type === 'text') {
      const sample = object.text && checkTyped(object.text, '', maxLength, true) === '' ? object.text : 'Option 1';
      return onChange({ ...base, kind: 'dropdown', options: [{ label: sample, value: sample }] });
    }
    const known = pictures.find((p) => p.src === object.src);
    const first: Choice = known
      ? { label: nameOf(known.label), src: known.src, width: known.width, height: known.height }
      : { label: 'Picture 1', src: object.src, width: Math.max(1, Math.round(object.width)), height: Math.max(1, Math.round(object.height)) };
    onChange({ ...base, kind: 'dropdown', options: [first] });
  };

  return (
    <Stack gap="xs" data-testid="buyer-input">
      <Text size="sm" fw={500}>
        What the buyer fills in
      </Text>
      <TextInput
        key={`${object.id}:${input.label ?? ''}`}
        label="Label the buyer reads"
        placeholder={fallbackLabel}
        defaultValue={input.label ?? ''}
        maxLength={LIMITS.maxIdLength}
        data-action="setInput"
        onBlur={(event) => {
          const label = event.currentTarget.value.trim();
          if (label !== (input.label ?? '')) set({ label: label || undefined });
        }}
      />
      <SegmentedControl
        aria-label="How the buyer fills it"
        data-action="setInput"
        value={input.kind}
        onChange={switchKind}
        data={
          image
            ? [
                { value: 'image', label: 'Uploads a photo' },
                { value: 'dropdown', label: 'Picks a picture' },
              ]
            : [
                { value: 'text', label: 'Types words' },
                { value: 'dropdown', label: 'Picks from a list' },
              ]
        }
      />
      {!dropdown && (
        <Checkbox
          label={image ? 'A photo is required' : 'The buyer must type something'}
          checked={input.required === true}
          data-action="setInput"
          onChange={(event) => set({ required: event.currentTarget.checked || undefined })}
        />
      )}
      {input.kind === 'text' && (
        <Select
          label="Characters allowed"
          data={CHARSETS}
          value={input.charset ?? ''}
          allowDeselect={false}
          data-action="setInput"
          onChange={(value) => set({ charset: (value ?? '') || undefined })}
        />
      )}
      {input.kind === 'image' && (
        <Text size="xs" c="dimmed">
          The buyer’s photo is fitted inside this box. A photo that would print below the print area’s minimum DPI is
          flagged to the buyer before they pay.
        </Text>
      )}
      {dropdown && object.type === 'text' && (
        <WordChoices options={options} maxLength={maxLength} onChange={(next) => set({ options: next })} />
      )}
      {dropdown && image && <PictureChoices options={options} pictures={pictures} onChange={(next) => set({ options: next })} />}
    </Stack>
  );
}

/** The words a buyer picks from: each removable (one stays), and a field to add one, checked as a buyer's text. */
function WordChoices({ options, maxLength, onChange }: { options: readonly Choice[]; maxLength: number; onChange: (o: Choice[]) => void }) {
  const [draft, setDraft] = useState('');
  const problem = draft === '' ? '' : checkTyped(draft, '', maxLength, true) || (options.some((o) => o.value === draft) ? 'That option is already in the list.' : '');
  const add = () => {
    if (draft === '' || problem !== '' || options.length >= LIMITS.maxChoices) return;
    onChange([...options, { label: draft, value: draft }]);
    setDraft('');
  };
  return (
    <Stack gap={4}>
      <Text size="sm">Options ({options.length} of {LIMITS.maxChoices})</Text>
      {options.map((o, i) => (
        <Group key={`${o.value}:${i}`} gap={4} wrap="nowrap">
          <Text size="sm" style={{ flex: 1, overflowWrap: 'anywhere' }}>
            {o.value}
          </Text>
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove option ${o.value}`}
            disabled={options.length === 1}
            data-action="setInput"
            onClick={() => onChange(options.filter((_, j) => j !== i))}
          >
            <IconX size={14} />
          </ActionIcon>
        </Group>
      ))}
      <Group gap={4} align="flex-start" wrap="nowrap">
        <TextInput
          aria-label="New option"
          placeholder={`Up to ${maxLength} characters`}
          value={draft}
          error={problem || undefined}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          style={{ flex: 1 }}
        />
        <Button
          size="sm"
          variant="default"
          leftSection={<IconPlus size={14} />}
          onClick={add}
          disabled={draft === '' || problem !== '' || options.length >= LIMITS.maxChoices}
          data-action="setInput"
        >
          Add
        </Button>
      </Group>
    </Stack>
  );
}

/** The pictures a buyer picks from: the seller's artworks and cliparts, clicked in or out (one stays), in the order picked. */
function PictureChoices({
  options,
  pictures,
  onChange,
}: {
  options: readonly Choice[];
  pictures: readonly PictureChoice[];
  onChange: (o: Choice[]) => void;
}) {
  const chosen = new Set(options.map((o) => o.src));
  const toggle = (p: PictureChoice) => {
    if (chosen.has(p.src)) {
      if (options.length > 1) onChange(options.filter((o) => o.src !== p.src));
      return;
    }
    if (options.length >= LIMITS.maxChoices) return;
    onChange([...options, { label: nameOf(p.label), src: p.src, width: p.width, height: p.height }]);
  };
  return (
    <Stack gap={4}>
      <Text size="sm">
        Pictures offered: {options.map((o) => o.label).join(', ')} ({options.length} of {LIMITS.maxChoices})
      </Text>
      <Text size="xs" c="dimmed">
        Click an artwork or a clipart to offer it or to take it out of the list.
      </Text>
      <ScrollArea.Autosize mah={180}>
        <SimpleGrid cols={4} spacing={6}>
          {pictures.map((p) => (
            <UnstyledButton
              key={p.src}
              onClick={() => toggle(p)}
              aria-pressed={chosen.has(p.src)}
              aria-label={`${chosen.has(p.src) ? 'Stop offering' : 'Offer'} ${p.label}`}
              title={p.label}
              data-action="setInput"
              style={{
                border: `2px solid ${chosen.has(p.src) ? 'var(--mantine-color-blue-filled)' : 'var(--mantine-color-default-border)'}`,
                borderRadius: 6,
                padding: 2,
              }}
            >
              <Image src={p.thumbnail} alt={p.label} h={56} fit="contain" />
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </ScrollArea.Autosize>
    </Stack>
  );
}
