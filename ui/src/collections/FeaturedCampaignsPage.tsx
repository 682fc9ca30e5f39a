import { ActionIcon, Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowDown, IconArrowUp, IconStar, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { collection, MAX_FEATURED, saveFeatured, type Collection } from '../api/collections';
import { can } from '../access/rules';
import { formErrorsOf } from '../pages/auth/formErrors';
import { useSessionUser } from '../session/useSessionUser';
import { COLLECTIONS_KEY, moved } from './model';

/** `/collections/{id}/featured-campaigns`: which campaigns of a collection the stores' home page features, in order. */
export function FeaturedCampaignsPage() {
  const { id } = useParams();
  const collectionId = Number(id);
  const one = useQuery({
    queryKey: [...COLLECTIONS_KEY, 'one', collectionId],
    queryFn: ({ signal }) => collection(api, collectionId, signal),
  });
  if (one.isPending) return <Loader aria-label="Loading the collection" />;
  if (one.isError) return <Alert color="red">{one.error.message}</Alert>;
  return <FeaturedEditor key={one.data.updated_at} collection={one.data} />;
}

function FeaturedEditor({ collection: c }: { collection: Collection }) {
  const user = useSessionUser();
  const readOnly = !can(user, 'update_campaign');
  const client = useQueryClient();
  const members = c.campaigns ?? [];
  const names = new Map(members.map((m) => [m.id, m.name]));
  const [featured, setFeatured] = useState<number[]>(members.filter((m) => m.featured_position !== null).map((m) => m.id));
  const [error, setError] = useState<string | null>(null);
  const others = members.filter((m) => !featured.includes(m.id));
  const full = featured.length >= MAX_FEATURED;
  const save = useMutation({
    mutationFn: () => saveFeatured(api, c.id, featured),
    onSuccess: async ({ message }) => {
      setError(null);
      notifications.show({ color: 'green', message });
      await client.invalidateQueries({ queryKey: COLLECTIONS_KEY });
    },
    onError: (e) => {
      const errors = formErrorsOf(e);
      setError(errors.campaign_ids ?? errors.form ?? null);
    },
  });
  return (
    <Stack gap="lg" maw={800}>
      <Stack gap={2}>
        <Anchor component={Link} to={`/collections/edit/${c.id}`} size="sm">
          ← {c.name}
        </Anchor>
        <Title order={1} fz="h2">
          Featured campaigns
        </Title>
        <Text c="dimmed" size="sm">
          Your stores&apos; home page shows these first under &ldquo;{c.name}&rdquo;, in this order (up to {MAX_FEATURED}).
        </Text>
      </Stack>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Featured, in order
        </Title>
        {featured.length === 0 ? (
          <Text c="dimmed">No campaign is featured yet{readOnly ? '.' : ': feature some from the list below.'}</Text>
        ) : (
          <Stack gap={6} component="ol" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Featured campaigns">
            {featured.map((campaignId, i) => {
              const name = names.get(campaignId) ?? `Campaign ${campaignId}`;
              return (
                <Group key={campaignId} component="li" justify="space-between" wrap="nowrap" data-testid="featured-campaign">
                  <Text>
                    <Text span c="dimmed" mr="xs">
                      {i + 1}.
                    </Text>
                    {name}
                  </Text>
                  {!readOnly && (
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon variant="default" aria-label={`Move ${name} up`} disabled={i === 0} onClick={() => setFeatured(moved(featured, i, i - 1))}>
                        <IconArrowUp size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="default"
                        aria-label={`Move ${name} down`}
                        disabled={i === featured.length - 1}
                        onClick={() => setFeatured(moved(featured, i, i + 1))}
                      >
                        <IconArrowDown size={16} />
                      </ActionIcon>
                      <ActionIcon variant="subtle" color="red" aria-label={`Stop featuring ${name}`} onClick={() => setFeatured(featured.filter((x) => x !== campaignId))}>
                        <IconX size={16} />
                      </ActionIcon>
                    </Group>
                  )}
                </Group>
              );
            })}
          </Stack>
        )}
      </Card>
      <Card withBorder radius="lg" padding="lg">
        <Title order={2} fz="h4" mb="sm">
          Other campaigns in this collection
        </Title>
        {members.length === 0 && (
          <Text c="dimmed">
            This collection has no campaigns yet.{' '}
            <Anchor component={Link} to={`/collections/edit/${c.id}`}>
              Add some
            </Anchor>
          </Text>
        )}
        {members.length > 0 && others.length === 0 && <Text c="dimmed">Every campaign of this collection is featured.</Text>}
        <Stack gap={6}>
          {others.map((m) => (
            <Group key={m.id} justify="space-between" wrap="nowrap" data-testid="other-campaign">
              <Text>{m.name}</Text>
              {!readOnly && (
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconStar size={14} />}
                  disabled={full}
                  title={full ? `At most ${MAX_FEATURED} campaigns can be featured.` : undefined}
                  aria-label={`Feature ${m.name}`}
                  onClick={() => setFeatured([...featured, m.id])}
                >
                  Feature
                </Button>
              )}
            </Group>
          ))}
        </Stack>
        {full && !readOnly && others.length > 0 && (
          <Text size="sm" c="dimmed" mt="sm">
            At most {MAX_FEATURED} campaigns can be featured: stop featuring one to feature another.
          </Text>
        )}
      </Card>
      {!readOnly && (
        <Group>
          <Button loading={save.isPending} onClick={() => save.mutate()}>
            Save order
          </Button>
        </Group>
      )}
    </Stack>
  );
}
