import { ActionIcon, Badge, Button, Group, Modal, NavLink, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFolder, IconFolderPlus, IconFolders, IconFolderX, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, isApiError } from '../api';
import {
  createFolder,
  deleteFolder,
  foldersKey,
  listFolders,
  renameFolder,
  type Folder,
  type FolderFilter,
  type FolderKind,
} from '../api/folders';
import { ConfirmDelete } from '../feedback/ConfirmDelete';

/** The words of a kind of file, for labels. */
const WORDS: Record<FolderKind, { all: string; many: string }> = {
  artwork: { all: 'All artworks', many: 'artworks' },
  clipart: { all: 'All cliparts', many: 'cliparts' },
};

/** The name field of a new or renamed folder; the bff's refusal shows under it. */
function NameForm({
  initial,
  label,
  submitLabel,
  save,
  onDone,
}: {
  initial: string;
  label: string;
  submitLabel: string;
  save: (name: string) => Promise<unknown>;
  onDone: () => void;
}) {
  const [name, setName] = useState(initial);
  const mutation = useMutation({ mutationFn: save, onSuccess: () => onDone() });
  const error = mutation.error && (isApiError(mutation.error) ? mutation.error.message : String(mutation.error));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate(name);
  };
  return (
    <form onSubmit={submit}>
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          aria-label={label}
          placeholder={label}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={error}
          maxLength={100}
          style={{ flex: 1 }}
        />
        <Button type="submit" variant="light" loading={mutation.isPending}>
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}

/**
 * The folders of the artworks page or the cliparts library: every file, those outside any folder, then each folder
 * with its count. With `canEdit` the seller makes, renames and deletes folders (deleting one leaves its files
 * outside any folder; `filesKey`, the page's list, is read afresh then).
 */
export function FolderList({
  kind,
  value,
  onChange,
  canEdit,
  filesKey,
}: {
  kind: FolderKind;
  value: FolderFilter;
  onChange: (value: FolderFilter) => void;
  canEdit: boolean;
  filesKey: QueryKey;
}) {
  const queryClient = useQueryClient();
  const key = foldersKey(kind);
  const folders = useQuery({ queryKey: key, queryFn: ({ signal }) => listFolders(api, kind, signal) });
  const [renaming, setRenaming] = useState<Folder | null>(null);
  const [deleting, setDeleting] = useState<Folder | null>(null);
  const [adding, setAdding] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const words = WORDS[kind];

  return (
    <Stack gap={4} data-testid="folder-list" w={240} style={{ flexShrink: 0 }}>
      <NavLink
        label={words.all}
        leftSection={<IconFolders size={16} />}
        active={value === 'all'}
        onClick={() => onChange('all')}
      />
      <NavLink
        label="Not in a folder"
        leftSection={<IconFolderX size={16} />}
        active={value === 'none'}
        onClick={() => onChange('none')}
      />
      {folders.isError && (
        <Text size="sm" c="red">
          {folders.error.message}
        </Text>
      )}
      {folders.data?.map((f) => (
        <NavLink
          key={f.id}
          label={
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {f.name}
            </Text>
          }
          leftSection={<IconFolder size={16} />}
          rightSection={
            <Group gap={2} wrap="nowrap">
              <Badge size="sm" variant="light" color="gray" title={`${f.count} ${words.many}`}>
                {f.count}
              </Badge>
              {canEdit && value === f.id && (
                <>
                  <ActionIcon
                    component="span"
                    variant="subtle"
                    size="sm"
                    aria-label={`Rename ${f.name}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      setRenaming(f);
                    }}
                  >
                    <IconPencil size={14} />
                  </ActionIcon>
                  <ActionIcon
                    component="span"
                    variant="subtle"
                    color="red"
                    size="sm"
                    aria-label={`Delete ${f.name}`}
                    onClick={(event) => {
                      event.stopPropagation();
                      setDeleting(f);
                    }}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                </>
              )}
            </Group>
          }
          active={value === f.id}
          onClick={() => onChange(f.id)}
          data-testid="folder"
        />
      ))}
      {canEdit &&
        (adding ? (
          <NameForm
            initial=""
            label="Folder name"
            submitLabel="Add"
            save={async (name) => {
              const answer = await createFolder(api, kind, name);
              notifications.show({ color: 'green', message: answer.message });
              await refresh();
              onChange(answer.data.id);
            }}
            onDone={() => setAdding(false)}
          />
        ) : (
          <Button variant="subtle" leftSection={<IconFolderPlus size={16} />} onClick={() => setAdding(true)} justify="flex-start">
            New folder
          </Button>
        ))}
      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title="Rename the folder">
        {renaming && (
          <NameForm
            initial={renaming.name}
            label="Folder name"
            submitLabel="Save"
            save={async (name) => {
              const answer = await renameFolder(api, kind, renaming.id, name);
              notifications.show({ color: 'green', message: answer.message });
              await refresh();
            }}
            onDone={() => setRenaming(null)}
          />
        )}
      </Modal>
      <ConfirmDelete
        item={deleting && { id: deleting.id, name: deleting.name }}
        onClose={() => {
          if (deleting && value === deleting.id) onChange('all');
          setDeleting(null);
          void queryClient.invalidateQueries({ queryKey: filesKey });
        }}
        remove={(id) => deleteFolder(api, kind, id)}
        queryKey={['folders']}
        texts={{ title: 'Delete this folder?', text: `its ${words.many} stay, outside any folder.`, confirmLabel: 'Delete the folder' }}
      />
    </Stack>
  );
}
