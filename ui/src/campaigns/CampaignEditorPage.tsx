import { ActionIcon, Alert, Anchor, Button, Card, Grid, Group, Loader, Stack, Switch, Tabs, Text, Title, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconArrowForwardUp, IconDeviceFloppy } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../api';
import { modelFor, type Campaign } from '../api/campaigns';
import { DesignCanvas } from '../editor/DesignCanvas';
import { DEFAULT_FONT_FAMILY, PRINT_TYPE_FULL_3D, fontSizeBounds, sourceKindOf, type ImageObject, type TextObject } from '../editor/document';
import { canvasMeasure, fontFileUrl } from '../editor/fonts';
import { EDITOR, resolution, texts } from '../editor/model';
import { ACTIONS, applies, tooltipOf, type Performance } from '../editor/model/actions';
import { focusOf, isDirty, selectedOf, type EditorState } from '../editor/model/state';
import { formatPrice } from '../format/price';
import { GUIDES_LEGEND, OUTLINE_LEGEND } from '../print/guides';
import { productColor } from '../mockup3d/productColor';
import { variantUrl } from '../uploads/api';
import { ArtworkPanel } from './ArtworkPanel';
import { CampaignSettings } from './CampaignSettings';
import { Design3DPreview } from './Design3DPreview';
import { designKey } from './editorState';
import { ExportPanel } from './ExportPanel';
import { LeaveGuard } from './LeaveGuard';
import { MockupGallery } from './MockupGallery';
import { NewCampaignForm } from './NewCampaignForm';
import { campaignQuery, modelsQuery } from './queries';
import { ResolutionBadge } from './ResolutionBadge';
import { editorPath, kindOfSegment, type KindSegment } from './routes';
import { TextPanel } from './TextPanel';
import { useCampaignEditor } from './useCampaignEditor';
import { can } from '../access/rules';
import { useSessionUser } from '../session/useSessionUser';

/** The actions a read-only user may perform: looking at another product or print space, selecting. */
const LOOKING = new Set<Performance['name']>(['switchProduct', 'switchSpace', 'select']);

/** perform limited to LOOKING: every change is dropped before it reaches the editor. */
function lookOnly(perform: (action: Performance) => void): (action: Performance) => void {
  return (action) => {
    if (LOOKING.has(action.name)) perform(action);
  };
}

/** The app URL of a stored file by its blob key (bff/uploads FileURL); http(s) sources are used as they are. */
function fileUrl(src: string): string {
  return sourceKindOf(src) === 'url' ? src : `/api/files/${src}`;
}

/** The URL a text's fontUrl loads from: the font file the renderer prints with. */
const fontUrl = (src: string) => fontFileUrl(src, fileUrl);

/** The URL of an artwork in the form the canvas loads: the design variant, or design3x for full 3D print. */
function artworkUrl(src: string, printType: number | undefined): string {
  if (sourceKindOf(src) === 'url') return src;
  return variantUrl(fileUrl(src), printType === PRINT_TYPE_FULL_3D ? 'design3x' : 'design');
}

/** The editor of a loaded campaign: layout over useCampaignEditor. Remounted (by key) when another campaign opens. */
function Editor({ initial }: { initial: Campaign }) {
  // The API's rule: changing a campaign needs update_campaign. Without it the editor only looks.
  const readOnly = !can(useSessionUser(), 'update_campaign');
  const editor = useCampaignEditor(initial, readOnly);
  const { state } = editor;
  const perform = readOnly ? lookOnly(editor.perform) : editor.perform;
  const { campaign, draft, errors } = state;
  const focus = focusOf(state);
  const models = useQuery(modelsQuery);
  // Zoomed out to the whole product on the canvas, or the print area filling it.
  const [productView, setProductView] = useState(false);

  if (!focus) {
    return (
      <Alert color="orange" title={campaign.name}>
        This campaign has no product with a main print space to design. Add a product to start.
      </Alert>
    );
  }
  const { product, spaces, space, key, doc } = focus;
  const selected = selectedOf(state);
  const selectedImage: ImageObject | null = selected?.type === 'image' ? selected : null;
  const selectedText: TextObject | null = selected?.type === 'text' ? selected : null;
  const model = modelFor(models.data ?? [], product, space.name);
  const colour = productColor(product);
  const outline = product.outlines?.[space.name] ?? null;
  const badge = resolution(doc, editor.knownSizes);
  const designErrors = errors.designs[key] ?? [];
  const productErrors = errors.products[product.id] ?? [];
  const imageUrl = (src: string) => artworkUrl(src, space.printType);
  const refusalAt = (at: NonNullable<EditorState['refusal']>['at']) => (state.refusal?.at === at ? state.refusal.message : null);

  return (
    <Stack gap="lg">
      <LeaveGuard when={!readOnly && isDirty(state) && !editor.save.isPending} />
      <Group justify="space-between" align="flex-end" wrap="nowrap">
        <Stack gap={2} miw={0}>
          <Anchor component={Link} to="/campaigns" size="sm">
            ← Campaigns
          </Anchor>
          <Title order={1} fz="h2" lineClamp={2} title={draft.name || campaign.name} style={{ overflowWrap: 'anywhere' }}>
            {draft.name || campaign.name}
          </Title>
        </Stack>
        {!readOnly && (
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <ActionButton name="undo" icon={<IconArrowBackUp size={18} />} state={state} perform={perform} />
            <ActionButton name="redo" icon={<IconArrowForwardUp size={18} />} state={state} perform={perform} />
            <Button leftSection={<IconDeviceFloppy size={16} />} loading={editor.save.isPending} onClick={editor.onSave}>
              Save
            </Button>
          </Group>
        )}
      </Group>
      {editor.localDraft.offer && (
        <Alert color="yellow" variant="light" data-testid="draft-offer" title="Unsaved changes were kept in this browser">
          <Stack gap="xs">
            <Text size="sm">
              Your changes of {new Date(editor.localDraft.offer.savedAt).toLocaleString()} to this campaign were not saved.
              Restore them to go on where you left off, or discard them to start from the saved design.
            </Text>
            <Group gap="xs">
              <Button size="xs" onClick={editor.localDraft.restore} data-action="restoreDraft">
                Restore changes
              </Button>
              <Button size="xs" variant="default" onClick={editor.localDraft.discard}>
                Discard
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      {readOnly && (
        <Alert color="blue" variant="light" data-testid="editor-read-only">
          View only: your permissions let you see this campaign but not change it.
        </Alert>
      )}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Card withBorder radius="lg" padding="md">
            <Tabs
              value={String(product.id)}
              onChange={(value) => perform({ name: 'switchProduct', value: Number(value) })}
              data-action="switchProduct"
            >
              <Tabs.List>
                {state.products.map((p) => (
                  <Tabs.Tab key={p.id} value={String(p.id)} c={errors.products[p.id] ? 'red' : undefined}>
                    {p.name}
                    {editor.extraOf(p.id) > 0 && (
                      <Text span size="xs" c="dimmed" ml={6} data-testid="extra-print-cost">
                        +{formatPrice(editor.extraOf(p.id))}
                      </Text>
                    )}
                  </Tabs.Tab>
                ))}
              </Tabs.List>
            </Tabs>
            <Group justify="space-between" mt="sm">
              <Tabs
                variant="pills"
                value={space.name}
                onChange={(value) => perform({ name: 'switchSpace', value: value ?? '' })}
                data-action="switchSpace"
              >
                <Tabs.List>
                  {spaces.map((ps) => (
                    <Tabs.Tab
                      key={ps.name}
                      value={ps.name}
                      c={errors.designs[designKey(product.id, ps.name)] ? 'red' : undefined}
                    >
                      {ps.name}
                      {ps.isMain ? ' ★' : ''}
                    </Tabs.Tab>
                  ))}
                </Tabs.List>
              </Tabs>
              <ResolutionBadge value={badge} dpi={space.DPI} minDpi={space.minDPI} />
            </Group>
            <Group gap="lg" mt="sm">
              <Switch
                label={ACTIONS.setRestricted.label}
                checked={state.restricted}
                onChange={(event) => perform({ name: 'setRestricted', value: event.currentTarget.checked })}
                data-action="setRestricted"
              />
              <Switch
                label={ACTIONS.setLockEdit.label}
                checked={state.lockEdit}
                onChange={(event) => perform({ name: 'setLockEdit', value: event.currentTarget.checked })}
                data-action="setLockEdit"
              />
            </Group>
            {[...productErrors, ...designErrors].map((message, i) => (
              <Alert key={i} color="red" variant="light" mt="sm" role="alert" data-testid="design-error">
                {message}
              </Alert>
            ))}
            <div style={{ marginTop: 12 }}>
              <DesignCanvas
                doc={doc}
                perform={perform}
                onKeyDown={readOnly ? () => undefined : editor.onCanvasKey}
                selectedId={state.selectedId}
                restricted={state.restricted}
                lockEdit={state.lockEdit}
                displayWidth={EDITOR.displayWidth}
                imageUrl={imageUrl}
                fontUrl={fontUrl}
                naturals={editor.knownSizes}
                background={colour.hex || undefined}
                outline={outline}
                productView={productView}
              />
              <Group justify="space-between" gap="xs" mt={4} wrap="nowrap" align="flex-start">
                <Text size="xs" c="dimmed">
                  {GUIDES_LEGEND}
                  {outline && productView ? ` · ${OUTLINE_LEGEND}` : ''} · {space.width}×{space.height} px · {space.DPI} DPI
                </Text>
                {outline && (
                  <Button size="compact-xs" variant="subtle" onClick={() => setProductView((v) => !v)} style={{ flexShrink: 0 }}>
                    {productView ? 'Show the print area' : 'Show the product'}
                  </Button>
                )}
              </Group>
            </div>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="md">
            <CampaignSettings
              draft={draft}
              onDraft={(patch) => perform({ name: 'editDraft', value: patch })}
              product={product}
              canRemove={campaign.products.length > 1}
              busy={editor.productChange.isPending}
              errors={errors}
              warnings={campaign.warnings}
              onAddProduct={(templateId) => editor.productChange.mutate({ add: templateId })}
              onRemoveProduct={() => editor.productChange.mutate({ remove: product.id })}
            />
            <Card withBorder radius="lg" padding="md">
              <Title order={2} fz="h5" mb="sm">
                Artwork
              </Title>
              <ArtworkPanel
                image={selectedImage}
                uploads={editor.readyUploads}
                uploading={editor.upload.isPending}
                onUpload={(file) => editor.upload.mutate(file)}
                onPick={editor.place}
                onPickClipart={editor.placeClipart}
                onResize={(width) =>
                  selectedImage &&
                  perform({ name: 'resize', value: { width, natural: editor.knownSizes[selectedImage.src] } })
                }
                refusal={refusalAt('artwork')}
                onCustomChange={(custom) => perform({ name: 'setCustomImage', value: custom })}
                onInput={(input) => perform({ name: 'setInput', value: input })}
                onLayer={(move) => perform({ name: 'moveLayer', value: move })}
                onRemove={() => perform({ name: 'remove', value: undefined })}
              />
            </Card>
            <Card withBorder radius="lg" padding="md">
              <Title order={2} fz="h5" mb="sm">
                Text
              </Title>
              <TextPanel
                text={selectedText}
                textCount={texts(doc).length}
                fonts={editor.fonts}
                backgrounds={editor.readyUploads.map((u) => ({ value: u.filePath, label: u.file_name }))}
                refusal={refusalAt('texts')}
                textRefusal={refusalAt('text')}
                fontSizes={fontSizeBounds(doc.printSpace)}
                onAdd={() => perform({ name: 'addText', value: canvasMeasure(DEFAULT_FONT_FAMILY) })}
                onChange={(patch) => perform({ name: 'updateText', value: patch })}
                onInput={(input) => perform({ name: 'setInput', value: input })}
                onRemove={() => perform({ name: 'remove', value: undefined })}
              />
            </Card>
            {colour.error !== undefined && (
              <Alert color="red" variant="light" role="alert" title="The product colour cannot be shown">
                {colour.error} The mockups of {product.name} fail until its colours are fixed.
              </Alert>
            )}
            {model && (
              <Design3DPreview doc={doc} model={model} color={colour.hex || undefined} imageUrl={imageUrl} fontUrl={fontUrl} />
            )}
          </Stack>
          </fieldset>
        </Grid.Col>
      </Grid>
      <ExportPanel exports={editor.exports.data ?? []} products={campaign.products} progress={editor.progress} error={editor.exports.error} />
      <MockupGallery
        campaignId={campaign.id}
        products={campaign.products}
        revisions={state.revisions}
        exportsSettled={editor.progress.settled}
      />
    </Stack>
  );
}

/** An icon button bound to an action: its label, its keys in the tooltip, enabled when the action applies. */
function ActionButton({
  name,
  icon,
  state,
  perform,
}: {
  name: 'undo' | 'redo';
  icon: ReactNode;
  state: EditorState;
  perform: (action: Performance) => void;
}) {
  return (
    <Tooltip label={tooltipOf(name)}>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={ACTIONS[name].label}
        disabled={!applies(state, name)}
        onClick={() => perform({ name, value: undefined })}
        data-action={name}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** Where the time of the last hidden-tab reload is kept, per tab. */
const HIDDEN_RELOAD_KEY = 'campaign-load-reload-at';
const HIDDEN_RELOAD_INTERVAL_MS = 60_000;

/**
 * A saved design that fails to load while the tab is hidden reloads the page, so the seller comes
 * back to a working editor. A missing campaign (404) stays missing, and a failing bff is not hammered: at most
 * one reload a minute, and none without session storage to remember it in.
 */
function reloadHiddenTab(error: Error): void {
  if (document.visibilityState !== 'hidden' || (isApiError(error) && error.status === 404)) return;
  try {
    const last = Number(window.sessionStorage.getItem(HIDDEN_RELOAD_KEY));
    if (last > 0 && Date.now() - last < HIDDEN_RELOAD_INTERVAL_MS) return;
    window.sessionStorage.setItem(HIDDEN_RELOAD_KEY, String(Date.now()));
  } catch {
    return;
  }
  window.location.reload();
}

/** Loads the campaign; see reloadHiddenTab for a failed load in a hidden tab. */
function LoadedEditor({ id }: { id: number }) {
  const campaign = useQuery(campaignQuery(id));
  useEffect(() => {
    if (campaign.error) reloadHiddenTab(campaign.error);
  }, [campaign.error]);
  if (campaign.isPending) return <Loader aria-label="Loading campaign" />;
  if (campaign.isError) {
    return (
      <Alert color="red" title="The campaign could not be loaded" role="alert">
        {campaign.error.message}
      </Alert>
    );
  }
  return <Editor key={id} initial={campaign.data} />;
}

/**
 * `/campaigns/edit/{id?}` and `/campaigns/{ai|aop|combo|custom}/edit/{id?}`: without an id, the create step
 * (name, kind, products) first; with one, the design editor of that campaign.
 */
export function CampaignEditorPage({ segment }: { segment?: KindSegment }) {
  const { id } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  if (id === undefined) {
    return (
      <Stack gap="lg" maw={760}>
        <Title order={1} fz="h2">
          New campaign
        </Title>
        <Card withBorder radius="lg" padding="lg">
          <NewCampaignForm
            kind={kindOfSegment(segment)}
            onCreated={(campaign) => {
              queryClient.setQueryData(campaignQuery(campaign.id).queryKey, campaign);
              void navigate(editorPath(campaign), { replace: true });
            }}
          />
        </Card>
      </Stack>
    );
  }
  const numeric = Number(id);
  if (!Number.isInteger(numeric) || numeric <= 0) {
    return <Alert color="red">Campaign not found</Alert>;
  }
  return <LoadedEditor id={numeric} />;
}
