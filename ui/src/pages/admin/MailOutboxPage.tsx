import { Anchor, Code, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api } from '../../api';
import { outboxMail, type OutboxMail } from '../../api/account';
import { ListPager, PagedListCard } from '../../components/PagedList';
import { SEARCH_DEBOUNCE_MS } from '../../components/useListSearch';

const URL_PATTERN = /(https?:\/\/[^\s]+)/g;

/** The body as text with its links clickable. */
function MailBody({ body }: { body: string }) {
  return (
    <Code block data-testid="mail-body" style={{ whiteSpace: 'pre-wrap' }}>
      {body.split(URL_PATTERN).map((part, i) =>
        i % 2 === 1 ? (
          <Anchor key={i} href={part}>
            {part}
          </Anchor>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </Code>
  );
}

/**
 * `/system/mail`: the local mail outbox for admins. Without an SMTP server (PRESSROOM_SMTP_HOST) the
 * bff keeps every message here, so reset, verification and invitation links work offline.
 */
export function MailOutboxPage() {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<OutboxMail | null>(null);
  const mail = useQuery({
    queryKey: ['mail-outbox', debounced, page],
    queryFn: ({ signal }) => outboxMail(api, { q: debounced || undefined, page }, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1} fz="h2">
          Mail outbox
        </Title>
        <Text c="dimmed">Messages the dashboard sent while no SMTP server is configured, newest first.</Text>
      </Stack>
      <TextInput
        placeholder="Search by recipient or subject"
        aria-label="Search mail"
        value={q}
        onChange={(event) => {
          setQ(event.currentTarget.value);
          setPage(1);
        }}
        maw={360}
      />
      <PagedListCard list={mail} loadingLabel="Loading mail">
        {(rows) => (
          <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="lg">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>To</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Sent</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((m) => (
                <Table.Tr key={m.id} style={{ cursor: 'pointer' }} onClick={() => setOpen(m)} data-testid="mail-row">
                  <Table.Td>{m.to}</Table.Td>
                  <Table.Td>
                    <Anchor component="button" type="button" onClick={() => setOpen(m)}>
                      {m.subject}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{new Date(m.created_at).toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </PagedListCard>
      <ListPager page={page} lastPage={mail.data?.last_page} onChange={setPage} />
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.subject} size="lg">
        {open && (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              To {open.to}
            </Text>
            <MailBody body={open.body} />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
