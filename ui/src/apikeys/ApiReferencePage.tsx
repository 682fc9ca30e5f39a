import { Alert, Anchor, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, isApiError } from '../api';
import { openApiDocument, type OpenApiDocument, type OpenApiParameter } from '../api/apiKeys';
import { LabelBadge } from '../components/LabelBadge';

const METHOD_COLORS: Record<string, string> = { get: 'blue', post: 'green', put: 'orange', delete: 'red' };

/** The component a `#/components/<kind>/<name>` reference points at. */
function resolve<T>(doc: OpenApiDocument, value: T | { $ref: string }): T | undefined {
  if (typeof value !== 'object' || value === null || !('$ref' in value)) return value;
  const [, , kind, name] = value.$ref.split('/');
  const group = (doc.components as Record<string, Record<string, unknown>> | undefined)?.[kind ?? ''];
  return group?.[name ?? ''] as T | undefined;
}

/** Text with `code` spans, as the document writes header and field names. */
function Prose({ text }: { text: string }) {
  return text.split('`').map((part, i) => (i % 2 ? <Code key={i}>{part}</Code> : part));
}

/** `/settings/api-keys/reference`: the public API's reference, rendered from its OpenAPI document. */
export function ApiReferencePage() {
  const doc = useQuery({ queryKey: ['api-v1', 'openapi'], queryFn: ({ signal }) => openApiDocument(api, signal) });
  return (
    <Stack gap="lg" maw={1100}>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          API reference
        </Title>
        <Group gap="md">
          <Anchor href="/api/v1/openapi.json" target="_blank">
            OpenAPI document
          </Anchor>
          <Anchor component={Link} to="/settings/api-keys">
            API Keys
          </Anchor>
        </Group>
      </Group>
      {doc.isPending && <Loader />}
      {doc.isError && <Alert color="red">{isApiError(doc.error) ? doc.error.message : 'The reference could not be loaded.'}</Alert>}
      {doc.data && <Reference doc={doc.data} />}
    </Stack>
  );
}

function Reference({ doc }: { doc: OpenApiDocument }) {
  const base = doc.servers?.[0]?.url ?? '';
  return (
    <>
      <Text maw={820}>
        <Prose text={doc.info.description ?? ''} />
      </Text>
      {Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => {
          const params = (op.parameters ?? []).map((p) => resolve<OpenApiParameter>(doc, p)).filter((p) => p !== undefined);
          return (
            <Card key={`${method} ${path}`} withBorder radius="lg" padding="lg" data-testid="api-operation">
              <Stack gap="sm">
                <Group gap="sm">
                  <LabelBadge color={METHOD_COLORS[method] ?? 'gray'}>{method.toUpperCase()}</LabelBadge>
                  <Text ff="monospace" fw={600}>
                    {base}
                    {path}
                  </Text>
                </Group>
                <Title order={2} fz="h5">
                  {op.summary}
                </Title>
                {op.description && (
                  <Text size="sm">
                    <Prose text={op.description} />
                  </Text>
                )}
                {params.length > 0 && (
                  <Table withTableBorder verticalSpacing={4} aria-label={`Parameters of ${method.toUpperCase()} ${path}`}>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Parameter</Table.Th>
                        <Table.Th>In</Table.Th>
                        <Table.Th>Description</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {params.map((p) => (
                        <Table.Tr key={`${p.in} ${p.name}`}>
                          <Table.Td ff="monospace">
                            {p.name}
                            {p.required ? ' *' : ''}
                          </Table.Td>
                          <Table.Td>{p.in}</Table.Td>
                          <Table.Td>{p.description ?? ''}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                )}
                <Stack gap={2}>
                  {Object.entries(op.responses).map(([code, r]) => (
                    <Text size="sm" key={code}>
                      <Text span ff="monospace" fw={600}>
                        {code}
                      </Text>{' '}
                      {resolve<{ description?: string }>(doc, r)?.description}
                    </Text>
                  ))}
                </Stack>
              </Stack>
            </Card>
          );
        }),
      )}
    </>
  );
}
