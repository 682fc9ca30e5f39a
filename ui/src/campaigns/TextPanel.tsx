import {
  Alert,
  Button,
  Checkbox,
  ColorInput,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { Font } from '../api/fonts';
import { DEFAULT_CHOICE, fontChoices } from './fontChoices';
import type { ConvertText, DisplayStyle, TextObject } from '../editor/document';
import { EDITOR, textLimit } from '../editor/model';
import { BoundedNumberInput } from './BoundedNumberInput';
import { InputPanel } from './InputPanel';
import type { Input } from '../editor/document';

/** What an artwork the seller uploaded is to the text panel: a background the glyphs can be filled with. */
export interface BackgroundChoice {
  /** Blob key. */
  value: string;
  label: string;
}

interface TextPanelProps {
  /** The selected text, if the selection is one. */
  text: TextObject | null;
  textCount: number;
  fonts: readonly Font[];
  backgrounds: readonly BackgroundChoice[];
  /** Why the last "Add text" was refused (model.addText's message). */
  refusal: string | null;
  /** Why the selected text's words were cut (shown under them). */
  textRefusal: string | null;
  /** The font sizes the print space allows (document.fontSizeBounds). */
  fontSizes: Readonly<{ min: number; max: number }>;
  onAdd: () => void;
  onChange: (patch: Partial<Omit<TextObject, 'type' | 'id'>>) => void;
  /** How the buyer fills the text, when it is the buyer's. */
  onInput: (input: Input | undefined) => void;
  onRemove: () => void;
}

const CONVERT: { value: ConvertText; label: string }[] = [
  { value: '', label: 'As typed' },
  { value: 'capitalize', label: 'Capitalize' },
  { value: 'uppercase', label: 'UPPERCASE' },
  { value: 'lowercase', label: 'lowercase' },
];

const DISPLAY: { value: DisplayStyle; label: string }[] = [
  { value: 'color', label: 'Colour' },
  { value: 'transparent', label: 'Transparent (knock-out)' },
  { value: 'image_background', label: 'Image background' },
];

/** Adding texts (2 per print area) and editing the selected one: words, font, size, colour and layout. */
export function TextPanel({
  text,
  textCount,
  fonts,
  backgrounds,
  refusal,
  textRefusal,
  fontSizes,
  onAdd,
  onChange,
  onInput,
  onRemove,
}: TextPanelProps) {
  const choices = fontChoices(fonts, text);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {textCount} of {EDITOR.textsPerPrintArea} texts
        </Text>
        <Button size="xs" leftSection={<IconPlus size={14} />} onClick={onAdd} data-action="addText">
          Add text
        </Button>
      </Group>
      {refusal && (
        <Alert color="orange" variant="light" role="alert" data-testid="text-refusal">
          {refusal}
        </Alert>
      )}
      {!text ? (
        <Text size="sm" c="dimmed">
          Select a text on the canvas to edit it.
        </Text>
      ) : (
        <Stack gap="xs">
          {/* No maxLength attribute: the browser would cut a paste without a word; the editor cuts it and says so. */}
          <TextInput
            label="Text"
            value={text.text}
            description={`${[...text.text].length} / ${textLimit(text)} characters`}
            error={textRefusal ?? undefined}
            data-action="updateText"
            onChange={(event) => onChange({ text: event.currentTarget.value })}
          />
          <Group grow>
            <Select
              label="Font"
              data={choices.map(({ value, label }) => ({ value, label }))}
              value={text.fontUrl || DEFAULT_CHOICE}
              allowDeselect={false}
              searchable
              data-action="updateText"
              onChange={(value) => {
                const choice = choices.find((c) => c.value === value);
                if (choice) onChange({ fontFamily: choice.family, fontUrl: choice.fontUrl });
              }}
            />
            <BoundedNumberInput
              key={text.id}
              label="Size"
              what="The size"
              min={fontSizes.min}
              max={fontSizes.max}
              value={text.fontSize}
              data-action="updateText"
              onValue={(fontSize) => onChange({ fontSize })}
            />
          </Group>
          <Select
            label="Convert"
            data={CONVERT}
            value={text.convertText ?? ''}
            allowDeselect={false}
            data-action="updateText"
            onChange={(value) => onChange({ convertText: (value ?? '') })}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Width
            </Text>
            <SegmentedControl
              aria-label="Text width"
              data={[
                { value: 'limited', label: 'Limited' },
                { value: 'fixed', label: 'Fixed' },
                { value: 'flexible', label: 'Flexible' },
              ]}
              value={text.textWidth}
              data-action="updateText"
              onChange={(value) => onChange({ textWidth: value })}
            />
          </Stack>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Alignment
            </Text>
            <SegmentedControl
              aria-label="Text alignment"
              data={[
                { value: 'left', label: 'Left' },
                { value: 'center', label: 'Center' },
                { value: 'right', label: 'Right' },
              ]}
              value={text.textAlign ?? 'center'}
              data-action="updateText"
              onChange={(value) => onChange({ textAlign: value })}
            />
          </Stack>
          <Select
            label="Display"
            data={DISPLAY}
            value={text.displayStyle}
            allowDeselect={false}
            data-action="updateText"
            onChange={(value) => {
              const displayStyle = (value ?? 'color');
              onChange({
                displayStyle,
                fill: displayStyle === 'color' ? (text.fill ?? EDITOR.defaultFill) : text.fill,
                backgroundUrl: displayStyle === 'image_background' ? (text.backgroundUrl || backgrounds[0]?.value || '') : '',
              });
            }}
          />
          {text.displayStyle === 'color' && (
            <ColorInput
              label="Colour"
              format="hex"
              value={text.fill ?? EDITOR.defaultFill}
              data-action="updateText"
              onChangeEnd={(fill) => onChange({ fill })}
            />
          )}
          {text.displayStyle === 'image_background' && (
            <Select
              label="Background image"
              data={[...backgrounds]}
              value={text.backgroundUrl || null}
              placeholder={backgrounds.length === 0 ? 'Upload an artwork first' : 'Pick an artwork'}
              data-action="updateText"
              onChange={(value) => onChange({ backgroundUrl: value ?? '' })}
            />
          )}
          <Checkbox
            label="The customer can edit this text"
            checked={text.isCustom === true}
            data-action="updateText"
            onChange={(event) => onChange({ isCustom: event.currentTarget.checked })}
          />
          {text.isCustom === true && <InputPanel object={text} pictures={[]} onChange={onInput} />}
          <Button size="xs" color="red" variant="subtle" leftSection={<IconTrash size={14} />} onClick={onRemove} w="fit-content" data-action="remove">
            Remove text
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
