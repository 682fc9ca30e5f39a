import { Alert, Button, Card, FileButton, Group, Loader, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { LabelBadge } from '../components/LabelBadge';
import { notifications } from '@mantine/notifications';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isApiError } from '../api';
import { deleteFont, FONTS_KEY, listFonts, uploadFont, type Font } from '../api/fonts';
import { can } from '../access/rules';
import { DEFAULT_FONT_FAMILY } from '../editor/document';
import { loadFontUrl } from '../editor/fonts';
import { ConfirmDelete } from '../feedback/ConfirmDelete';
import { useSessionUser } from '../session/useSessionUser';

/** The sample each font is previewed with, until the seller types their own. */
export const SAMPLE_TEXT = 'The quick brown fox jumps over the lazy dog 0123456789';

/** What an upload may be (the bff reads the file and refuses anything else with a message). */
const ACCEPT = '.ttf,.otf,.woff,.woff2,font/ttf,font/otf,font/woff,font/woff2';

/** The CSS family a font's file was loaded under, once it has loaded (the default font meanwhile). */
function useLoadedFamily(font: Font): string | null {
  const [family, setFamily] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadFontUrl(font.font_url, font.url).then((f) => live && setFamily(f));
    return () => {
      live = false;
    };
  }, [font.font_url, font.url]);
  return family;
}

function FontCard({ font, sample, onDelete }: { font: Font; sample: string; onDelete?: () => void }) {
  const family = useLoadedFamily(font);
  return (
    <Card withBorder radius="md" padding="md" data-testid="font-card" data-font-url={font.font_url} data-loaded={family ? 'true' : 'false'}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Text fw={600}>{font.family}</Text>
          <Text size="xs" c="dimmed">
            {font.style} · weight {font.weight}
            {font.platform ? '' : ` · ${font.format.toUpperCase()} · ${Math.max(1, Math.round(font.size / 1024))} KB`}
          </Text>
        </Stack>
        {font.platform ? (
          <LabelBadge color="gray">Included</LabelBadge>
        ) : (
          <LabelBadge color="blue">Yours</LabelBadge>
        )}
      </Group>
      <Text
        mt="sm"
        fz={26}
        lh={1.3}
        style={{ fontFamily: family ? `"${family}", ${DEFAULT_FONT_FAMILY}` : DEFAULT_FONT_FAMILY, overflowWrap: 'anywhere' }}
        data-testid="font-sample"
      >
        {sample || SAMPLE_TEXT}
      </Text>
      {onDelete && (
        <Group justify="flex-end" mt="sm">
          <Button size="xs" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
            Delete
          </Button>
        </Group>
      )}
    </Card>
  );
}

/**
 * `/personalized/fonts`: the fonts the editor offers — those included with Pressroom and the seller's uploads — each
 * previewed in its own outlines, with upload and delete.
 */
export function FontsPage() {
  const user = useSessionUser();
  const canEdit = can(user, 'update_campaign');
  const queryClient = useQueryClient();
  const [sample, setSample] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Font | null>(null);
  const list = useQuery({ queryKey: FONTS_KEY, queryFn: ({ signal }) => listFonts(api, signal) });
  const upload = useMutation({
    mutationFn: (file: File) => uploadFont(api, file),
    onMutate: () => setRefusal(null),
    onSuccess: ({ message }) => notifications.show({ color: 'green', message }),
    onError: (error) => setRefusal(isApiError(error) ? error.message : String(error)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: FONTS_KEY }),
  });
  const own = list.data?.filter((f) => !f.platform) ?? [];
  const included = list.data?.filter((f) => f.platform) ?? [];

  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between" align="flex-end">
        <Stack gap={4}>
          <Title order={1} fz="h2">
            Fonts
          </Title>
          <Text c="dimmed">
            TTF, OTF, WOFF or WOFF2, up to 10 MB, with the letters A–Z, a–z and the digits 0–9. The editor, the store&apos;s
            preview and the print file all use the same file.
          </Text>
        </Stack>
        {canEdit && (
          <FileButton onChange={(file) => file && upload.mutate(file)} accept={ACCEPT}>
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                Upload font
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {refusal && (
        <Alert color="red" role="alert" data-testid="font-refusal" withCloseButton onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      <TextInput
        label="Preview text"
        placeholder={SAMPLE_TEXT}
        value={sample}
        onChange={(event) => setSample(event.currentTarget.value)}
        maw={520}
      />
      {list.isPending && <Loader aria-label="Loading fonts" />}
      {list.isError && <Alert color="red">{list.error.message}</Alert>}
      {list.data && (
        <>
          <Title order={2} fz="h4">
            Your fonts
          </Title>
          {own.length === 0 ? (
            <Text c="dimmed">No font uploaded yet.</Text>
          ) : (
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {own.map((f) => (
                <FontCard key={f.id} font={f} sample={sample} onDelete={canEdit ? () => setDeleting(f) : undefined} />
              ))}
            </SimpleGrid>
          )}
          <Title order={2} fz="h4">
            Included with Pressroom
          </Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {included.map((f) => (
              <FontCard key={f.id} font={f} sample={sample} />
            ))}
          </SimpleGrid>
        </>
      )}
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.full_name }}
        onClose={() => setDeleting(null)}
        remove={(id) => deleteFont(api, id)}
        queryKey={FONTS_KEY}
        texts={{ text: 'the font leaves the font picker. Campaigns that use it keep it and keep printing with it.' }}
      />
    </Stack>
  );
}
