import { Text, TextInput } from '@mantine/core';
import type { useAddressField } from './useAddressField';

/**
 * The address input of `field` (useAddressField) after `prefix` ("/p/"), with the server's `refusal` of it, and where
 * buyers will find it (`shop`, the store's address, when known).
 */
export function AddressInput({
  field,
  prefix,
  refusal,
  shop,
  disabled,
}: {
  field: ReturnType<typeof useAddressField>;
  prefix: string;
  refusal: string | undefined;
  shop?: string;
  disabled: boolean;
}) {
  return (
    <TextInput
      label="Address"
      withAsterisk
      leftSection={
        <Text size="xs" c="dimmed" pl={6}>
          {prefix}
        </Text>
      }
      leftSectionWidth={12 + prefix.length * 7}
      description={shop ? `${field.description} Buyers will find it at ${shop}${prefix.slice(1)}${field.slug || '…'}` : field.description}
      disabled={disabled}
      value={field.value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      error={field.error(refusal)}
    />
  );
}
