import { Alert, Button, Group, Loader, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError } from '../api';
import {
  campaign,
  createCampaign,
  mergeFields,
  previewCampaign,
  sendTestCampaign,
  senders,
  storeDomains,
  updateCampaign,
  type CampaignPreview,
} from '../api/emailMarketing';
import { CampaignForm } from './CampaignForm';
import { CAMPAIGNS_KEY, sendersOfStore } from './campaignSchemas';
import { StorePicker } from './StorePicker';

/** The merge fields the form lists, and the server's preview. */
function useMergeFields() {
  const fields = useQuery({ queryKey: ['email-marketing', 'merge-fields'], queryFn: ({ signal }) => mergeFields(api, signal), staleTime: Infinity });
  return { mergeFields: fields.data ?? [], preview: previewOf };
}

const previewOf = (input: CampaignPreview, signal: AbortSignal) => previewCampaign(api, input, signal);

function useSenders(storeId: number | null) {
  const list = useQuery({ queryKey: ['email-marketing', 'senders', 1], queryFn: ({ signal }) => senders(api, 1, signal) });
  const domains = useQuery({ queryKey: ['email-marketing', 'domains'], queryFn: ({ signal }) => storeDomains(api, signal) });
  return sendersOfStore(list.data?.data ?? [], domains.data ?? [], storeId);
}

/** `/email-marketing/campaigns/new`: a new draft of one of the stores. */
export function NewEmailCampaignPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [storeId, setStoreId] = useState<number | null>(null);
  const storeSenders = useSenders(storeId);
  const merge = useMergeFields();
  return (
    <Stack gap="lg" maw={1200}>
      <Title order={1} fz="h2">
        New email campaign
      </Title>
      <StorePicker value={storeId} onChange={setStoreId} />
      <CampaignForm
        key={storeId ?? 0}
        senders={storeSenders}
        {...merge}
        submitLabel="Save draft"
        onSubmit={async (values) => {
          const { message, data } = await createCampaign(api, { ...values, store_id: storeId ?? 0 });
          notifications.show({ color: 'green', message });
          await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY });
          await navigate(`/email-marketing/campaigns/edit/${data.id}`);
        }}
      />
    </Stack>
  );
}

/** `/email-marketing/campaigns/edit/:id`: a draft's form with its test send. */
export function EditEmailCampaignPage() {
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'one', id],
    queryFn: ({ signal }) => campaign(api, id, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
  const storeSenders = useSenders(current.data?.store_id ?? null);
  const merge = useMergeFields();
  if (current.isError) {
    return (
      <Alert color="red" role="alert">
        {isApiError(current.error) ? current.error.message : 'Campaign not found.'}
      </Alert>
    );
  }
  if (!current.data) return <Loader />;
  const c = current.data;
  return (
    <Stack gap="lg" maw={1200}>
      <Group justify="space-between">
        <Title order={1} fz="h2">
          Edit campaign
        </Title>
        <Button variant="light" component={Link} to={`/email-marketing/campaigns/view/${c.id}`}>
          Review and send
        </Button>
      </Group>
      {c.status !== 'draft' ? (
        <Alert color="yellow">Only draft campaigns can be changed or deleted.</Alert>
      ) : (
        <CampaignForm
          key={c.updated_at}
          initial={c}
          senders={storeSenders}
          {...merge}
          submitLabel="Save"
          onSubmit={async (values) => {
            const { message, data } = await updateCampaign(api, c.id, values);
            notifications.show({ color: 'green', message });
            queryClient.setQueryData([...CAMPAIGNS_KEY, 'one', id], data);
            await queryClient.invalidateQueries({ queryKey: CAMPAIGNS_KEY, exact: false, refetchType: 'none' });
          }}
          onTest={async (email) => {
            const { message } = await sendTestCampaign(api, c.id, email);
            notifications.show({ color: 'green', message });
          }}
        />
      )}
    </Stack>
  );
}
