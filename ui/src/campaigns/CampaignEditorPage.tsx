import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Card,
  Grid,
  Group,
  Loader,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { useDebouncedValue, useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconArrowBackUp, IconArrowForwardUp, IconDeviceFloppy } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, isApiError, type FieldError } from '../api';
import {
  addProduct,
  calcExtraPrintCost,
  listExports,
  listFonts,
  modelFor,
  removeProduct,
  saveCampaign,
  type Campaign,
  type CampaignUpdate,
  type PrintSpace,
  type Product,
} from '../api/campaigns';
import { DesignCanvas } from '../editor/DesignCanvas';
import { PRINT_TYPE_FULL_3D, sourceKindOf, type DesignDocument, type ImageObject, type TextObject } from '../editor/document';
import {
  EDITOR,
  History,
  addImage,
  addText,
  emptyDocument,
  moveLayer,
  nextId,
  removeObject,
  replaceImage,
  resolution,
  syncDesigns,
  transformObject,
  updateText,
  type DesignSlot,
  type LayerMove,
  type Size,
} from '../editor/model';
import { toastDuration } from '../feedback/toast';
import { formatPrice } from '../format/price';
import { productColor } from '../mockup3d/productColor';
import { listUploads, variantUrl, type Upload } from '../uploads/api';
import { notifyUploadFailed } from '../uploads/notify';
import { uploadFile } from '../uploads/uploader';
import { ArtworkPanel } from './ArtworkPanel';
import { CampaignSettings } from './CampaignSettings';
import {
  checkBeforeSave,
  designKey,
  designableProducts,
  exportPollInterval,
  exportProgress,
  initialDocuments,
  objectCounts,
  orderedPrintSpaces,
  placeErrors,
  saveBody,
  savedRevisions,
  setCustomImage,
  type CampaignDraft,
  type Documents,
  type PlacedErrors,
} from './editorState';
import { ExportPanel } from './ExportPanel';
import { Design3DPreview } from './Design3DPreview';
import { MockupGallery } from './MockupGallery';
import { LeaveGuard } from './LeaveGuard';
import { NewCampaignForm } from './NewCampaignForm';
import { CAMPAIGNS_KEY, campaignQuery, modelsQuery } from './queries';
import { ResolutionBadge } from './ResolutionBadge';
import { editorPath, kindOfSegment, type KindSegment } from './routes';
import { TextPanel } from './TextPanel';

/** The app URL of a stored file by its blob key (bff/uploads FileURL); http(s) sources are used as they are. */
function fileUrl(src: string): string {
  return sourceKindOf(src) === 'url' ? src : `/api/files/${src}`;
}

/** The URL of an artwork in the form the canvas loads: the design variant, or design3x for full 3D print. */
function artworkUrl(src: string, printType: number | undefined): string {
  if (sourceKindOf(src) === 'url') return src;
  return variantUrl(fileUrl(src), printType === PRINT_TYPE_FULL_3D ? 'design3x' : 'design');
}

const NO_ERRORS: PlacedErrors = { products: {}, designs: {}, general: [] };

/** A save refused by the editor's own checks, before any request. */
class SaveCheckError extends Error {
  constructor(
    readonly fieldErrors: FieldError[],
    readonly body: CampaignUpdate,
  ) {
    super(fieldErrors[0]?.message ?? 'The campaign cannot be saved.');
    this.name = 'SaveCheckError';
  }
}

function slotsOf(products: readonly Product[], docs: Documents): DesignSlot[] {
  return products.flatMap((product) =>
    orderedPrintSpaces(product).map((ps) => ({
      productId: product.id,
      printSpace: ps,
      doc: docs[designKey(product.id, ps.name)] ?? emptyDocument(ps),
    })),
  );
}

/** The natural sizes the export reports know, by src: a saved design's artwork is sized before it is picked again. */
function naturalsFromCampaign(campaign: Campaign): Record<string, Size> {
  const sizes: Record<string, Size> = {};
  for (const design of campaign.designs) {
    for (const o of design.export.report?.dpi.objects ?? []) {
      const image = design.design_json.objects.find((d) => d.id === o.id && d.type === 'image');
      if (image?.type === 'image') sizes[image.src] = { width: o.source_width, height: o.source_height };
    }
  }
  return sizes;
}

interface EditorProps {
  initial: Campaign;
}

/** The editor of a loaded campaign. Remounted (by key) when another campaign opens. */
function Editor({ initial }: EditorProps) {
  const queryClient = useQueryClient();
  const [campaign, setCampaign] = useState(initial);
  const products = useMemo(() => designableProducts(campaign.products), [campaign.products]);
  const combo = campaign.kind === 'combo';

  const [saved, setSaved] = useState(() => ({
    docs: initialDocuments(initial, products, emptyDocument),
    draft: {
      name: initial.name,
      personalized: initial.personalized,
      productPersonalized: Object.fromEntries(initial.products.map((p) => [p.id, p.personalized])),
    },
  }));
  const [docs, setDocs] = useState<Documents>(saved.docs);
  const [draft, setDraft] = useState<CampaignDraft>(saved.draft);
  const history = useRef(new History<Documents>(saved.docs));
  const [undoRedo, setUndoRedo] = useState({ canUndo: false, canRedo: false });
  const dirty = docs !== saved.docs || draft !== saved.draft;

  const [productId, setProductId] = useState(products[0]?.id ?? 0);
  const product = products.find((p) => p.id === productId) ?? products[0];
  const spaces = useMemo(() => (product ? orderedPrintSpaces(product) : []), [product]);
  const [spaceName, setSpaceName] = useState(spaces[0]?.name ?? '');
  const space: PrintSpace | undefined = spaces.find((ps) => ps.name === spaceName) ?? spaces[0];
  const key = product && space ? designKey(product.id, space.name) : '';
  const doc: DesignDocument | undefined = space ? (docs[key] ?? emptyDocument(space)) : undefined;

  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [restricted, setRestricted] = useState(true);
  const [lockEdit, setLockEdit] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [errors, setErrors] = useState<PlacedErrors>(NO_ERRORS);
  const [naturals, setNaturals] = useState<Record<string, Size>>(() => naturalsFromCampaign(initial));
  const [revisions, setRevisions] = useState(() => savedRevisions(initial));

  const selected = doc?.objects.find((o) => o.id === selectedId) ?? null;
  const selectedImage: ImageObject | null = selected?.type === 'image' ? selected : null;
  const selectedText: TextObject | null = selected?.type === 'text' ? selected : null;

  const models = useQuery(modelsQuery);
  const model = product && space ? modelFor(models.data ?? [], product, space.name) : undefined;
  const fonts = useQuery({ queryKey: ['fonts'], queryFn: ({ signal }) => listFonts(api, signal), staleTime: Infinity });
  const uploads = useQuery({
    queryKey: ['uploads', 1],
    queryFn: ({ signal }) => listUploads(api, 1, signal),
    placeholderData: keepPreviousData,
  });
  const readyUploads = useMemo(() => (uploads.data?.data ?? []).filter((u) => u.status === 'ready'), [uploads.data]);
  const knownSizes = useMemo(() => {
    const sizes: Record<string, Size> = {};
    for (const u of readyUploads) if (u.width && u.height) sizes[u.filePath] = { width: u.width, height: u.height };
    return { ...sizes, ...naturals };
  }, [readyUploads, naturals]);

  // --- editing through the History ---------------------------------------------------------------

  const show = useCallback((next: Documents) => {
    setDocs(next);
    setUndoRedo({ canUndo: history.current.canUndo, canRedo: history.current.canRedo });
  }, []);

  /** Records the new document of the current print space and propagates it. */
  const change = useCallback(
    (next: DesignDocument) => {
      if (!product || !space || next === docs[key]) return;
      const slots = slotsOf(products, { ...docs, [key]: next });
      const synced = syncDesigns(slots, { productId: product.id, printSpace: space.name }, { combo });
      const nextDocs = Object.fromEntries(synced.map((s) => [designKey(s.productId, s.printSpace.name), s.doc]));
      show(history.current.push(nextDocs));
    },
    [combo, docs, key, product, products, show, space],
  );

  const undo = useCallback(() => show(history.current.undo()), [show]);
  const redo = useCallback(() => show(history.current.redo()), [show]);
  useHotkeys([
    ['mod+Z', undo],
    ['mod+shift+Z', redo],
    ['mod+Y', redo],
  ]);

  /** Starts the history again from `next` (after the products changed, old steps would name missing designs). */
  const resetHistory = (next: Documents) => {
    history.current = new History(next);
    show(next);
  };

  // --- artwork and text ---------------------------------------------------------------------------

  const place = (upload: Upload) => {
    if (!doc) return;
    if (!upload.width || !upload.height) {
      notifications.show({ color: 'red', message: `${upload.file_name} has no known size yet.` });
      return;
    }
    const size = { width: upload.width, height: upload.height };
    setNaturals((n) => ({ ...n, [upload.filePath]: size }));
    if (selectedImage) {
      change(replaceImage(doc, selectedImage.id, { src: upload.filePath, ...size }));
      return;
    }
    const id = nextId(doc, 'art');
    change(addImage(doc, { id, src: upload.filePath, ...size }, { restricted }));
    setSelectedId(id);
  };

  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(api, file, { filePath: 'artworks' }),
    onSuccess: place,
    onError: notifyUploadFailed,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['uploads'] }),
  });

  const onAddText = () => {
    if (!doc) return;
    // Each further text starts one and a half lines below the last, so a new text never hides the one before.
    const count = doc.objects.filter((o) => o.type === 'text').length;
    const size = EDITOR.defaultFontSize;
    const added = addText(doc, { y: (doc.printSpace.height - size) / 2 + count * size * 1.5 });
    if ('error' in added) {
      setRefusal(added.error);
      return;
    }
    setRefusal(null);
    change(added.doc);
    setSelectedId(added.doc.objects[added.doc.objects.length - 1]?.id ?? null);
  };

  const onResize = (width: number) => {
    if (!doc || !selectedImage) return;
    const height = (selectedImage.height * width) / selectedImage.width;
    const box = {
      x: selectedImage.x + (selectedImage.width - width) / 2,
      y: selectedImage.y + (selectedImage.height - height) / 2,
      width,
      height,
      rotation: selectedImage.rotation,
    };
    change(transformObject(doc, selectedImage.id, box, { restricted, lockEdit, natural: knownSizes[selectedImage.src] }));
  };

  const onRemoveSelected = () => {
    if (!doc || !selected) return;
    change(removeObject(doc, selected.id));
    setSelectedId(null);
    setRefusal(null);
  };

  // --- products -----------------------------------------------------------------------------------

  const adopt = (next: Campaign) => {
    setCampaign(next);
    queryClient.setQueryData(campaignQuery(next.id).queryKey, next);
    const nextProducts = designableProducts(next.products);
    const fresh = initialDocuments(next, nextProducts, emptyDocument);
    // Keep the unsaved work of the products that stay.
    const merged = Object.fromEntries(Object.entries(fresh).map(([k, d]) => [k, docs[k] ?? d]));
    resetHistory(merged);
    setDraft((d) => ({
      ...d,
      productPersonalized: Object.fromEntries(next.products.map((p) => [p.id, d.productPersonalized[p.id] ?? p.personalized])),
    }));
  };
  const productChange = useMutation({
    mutationFn: (op: { add: number } | { remove: number }) =>
      'add' in op ? addProduct(api, campaign.id, op.add) : removeProduct(api, campaign.id, op.remove),
    onSuccess: (next, op) => {
      adopt(next);
      if ('add' in op) {
        const added = next.products.find((p) => !campaign.products.some((old) => old.id === p.id));
        if (added) setProductId(added.id);
      } else if (op.remove === productId) setProductId(next.products[0]?.id ?? 0);
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  // --- extra print cost ---------------------------------------------------------------------------

  const counts = useMemo(() => objectCounts(products, docs), [products, docs]);
  const [debouncedCounts] = useDebouncedValue(counts, 300);
  const extraCost = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'extra-print-cost', campaign.id, debouncedCounts],
    queryFn: () => calcExtraPrintCost(api, campaign.id, debouncedCounts),
    placeholderData: keepPreviousData,
  });
  const extraOf = (id: number) => extraCost.data?.find((c) => c.id === id)?.extra_print_cost ?? 0;

  // --- save and exports ---------------------------------------------------------------------------

  const exports = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'exports', campaign.id, revisions],
    queryFn: ({ signal }) => listExports(api, campaign.id, signal),
    refetchInterval: (query) => exportPollInterval(query.state.data, revisions),
    placeholderData: keepPreviousData,
  });
  const progress = exportProgress(exports.data ?? [], revisions);

  const save = useMutation({
    mutationFn: async ({ body }: { body: CampaignUpdate; docs: Documents; draft: CampaignDraft }) => {
      const problems = checkBeforeSave(campaign.products, body);
      if (problems.length > 0) throw new SaveCheckError(problems, body);
      return saveCampaign(api, campaign.id, body);
    },
    onSuccess: (next, sent) => {
      setErrors(NO_ERRORS);
      setCampaign(next);
      queryClient.setQueryData(campaignQuery(next.id).queryKey, next);
      setSaved({ docs: sent.docs, draft: sent.draft });
      setRevisions(savedRevisions(next));
      void queryClient.invalidateQueries({ queryKey: [...CAMPAIGNS_KEY, 'list'] });
      notifications.show({ color: 'green', message: 'Campaign saved. Making the print files…' });
    },
    onError: (error, sent) => {
      const fieldErrors = error instanceof SaveCheckError || isApiError(error) ? error.fieldErrors : [];
      const placed = placeErrors(fieldErrors, campaign.products, sent.body);
      setErrors(placed);
      const messages = [error.message, ...placed.general.filter((m) => m !== error.message)];
      notifications.show({
        color: 'red',
        title: 'The campaign was not saved',
        message: messages.join('\n'),
        autoClose: toastDuration('error', messages),
      });
    },
  });
  const onSave = () => save.mutate({ body: saveBody(campaign.products, draft, docs), docs, draft });

  if (!product || !space || !doc) {
    return (
      <Alert color="orange" title={campaign.name}>
        This campaign has no product with a main print space to design. Add a product to start.
      </Alert>
    );
  }

  const badge = resolution(doc, knownSizes);
  const designErrors = errors.designs[key] ?? [];
  const productErrors = errors.products[product.id] ?? [];

  return (
    <Stack gap="lg">
      <LeaveGuard when={dirty && !save.isPending} />
      <Group justify="space-between" align="flex-end">
        <Stack gap={2}>
          <Anchor component={Link} to="/campaigns" size="sm">
            ← Campaigns
          </Anchor>
          <Title order={1} fz="h2">
            {draft.name || campaign.name}
          </Title>
        </Stack>
        <Group gap="xs">
          <Tooltip label="Undo (Ctrl+Z)">
            <ActionIcon variant="default" size="lg" aria-label="Undo" disabled={!undoRedo.canUndo} onClick={undo}>
              <IconArrowBackUp size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Redo (Ctrl+Shift+Z or Ctrl+Y)">
            <ActionIcon variant="default" size="lg" aria-label="Redo" disabled={!undoRedo.canRedo} onClick={redo}>
              <IconArrowForwardUp size={18} />
            </ActionIcon>
          </Tooltip>
          <Button leftSection={<IconDeviceFloppy size={16} />} loading={save.isPending} onClick={onSave}>
            Save
          </Button>
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Card withBorder radius="lg" padding="md">
            <Tabs
              value={String(product.id)}
              onChange={(value) => {
                setProductId(Number(value));
                setSpaceName('');
                setSelectedId(null);
                setRefusal(null);
              }}
            >
              <Tabs.List>
                {products.map((p) => (
                  <Tabs.Tab key={p.id} value={String(p.id)} c={errors.products[p.id] ? 'red' : undefined}>
                    {p.name}
                    {extraOf(p.id) > 0 && (
                      <Text span size="xs" c="dimmed" ml={6} data-testid="extra-print-cost">
                        +{formatPrice(extraOf(p.id))}
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
                onChange={(value) => {
                  setSpaceName(value ?? '');
                  setSelectedId(null);
                  setRefusal(null);
                }}
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
                label="Restricted mode"
                checked={restricted}
                onChange={(event) => setRestricted(event.currentTarget.checked)}
              />
              <Switch label="Lock edit" checked={lockEdit} onChange={(event) => setLockEdit(event.currentTarget.checked)} />
              <Text size="xs" c="dimmed">
                {space.width}×{space.height} px · {space.DPI} DPI
              </Text>
            </Group>
            {[...productErrors, ...designErrors].map((message, i) => (
              <Alert key={i} color="red" variant="light" mt="sm" role="alert" data-testid="design-error">
                {message}
              </Alert>
            ))}
            <div style={{ marginTop: 12 }}>
              <DesignCanvas
                doc={doc}
                onChange={change}
                selectedId={selectedId}
                onSelect={setSelectedId}
                restricted={restricted}
                lockEdit={lockEdit}
                displayWidth={EDITOR.displayWidth}
                imageUrl={(src) => artworkUrl(src, space.printType)}
                fontUrl={fileUrl}
                naturals={knownSizes}
              />
            </div>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Stack gap="md">
            <CampaignSettings
              draft={draft}
              onDraft={setDraft}
              product={product}
              canRemove={campaign.products.length > 1}
              busy={productChange.isPending}
              errors={errors}
              onAddProduct={(templateId) => productChange.mutate({ add: templateId })}
              onRemoveProduct={() => productChange.mutate({ remove: product.id })}
            />
            <Card withBorder radius="lg" padding="md">
              <Title order={2} fz="h5" mb="sm">
                Artwork
              </Title>
              <ArtworkPanel
                image={selectedImage}
                uploads={readyUploads}
                uploading={upload.isPending}
                onUpload={(file) => upload.mutate(file)}
                onPick={place}
                onResize={onResize}
                onCustomChange={(custom) => selectedImage && change(setCustomImage(doc, selectedImage.id, custom))}
                onLayer={(move: LayerMove) => selected && change(moveLayer(doc, selected.id, move))}
                onRemove={onRemoveSelected}
              />
            </Card>
            <Card withBorder radius="lg" padding="md">
              <Title order={2} fz="h5" mb="sm">
                Text
              </Title>
              <TextPanel
                text={selectedText}
                textCount={doc.objects.filter((o) => o.type === 'text').length}
                fonts={fonts.data ?? []}
                backgrounds={readyUploads.map((u) => ({ value: u.filePath, label: u.file_name }))}
                refusal={refusal}
                onAdd={onAddText}
                onChange={(patch) => selectedText && change(updateText(doc, selectedText.id, patch))}
                onRemove={onRemoveSelected}
              />
            </Card>
            {model && (
              <Design3DPreview
                doc={doc}
                model={model}
                color={productColor(product)}
                imageUrl={(src) => artworkUrl(src, space.printType)}
                fontUrl={fileUrl}
              />
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <ExportPanel exports={exports.data ?? []} products={campaign.products} progress={progress} error={exports.error} />
      <MockupGallery campaignId={campaign.id} products={campaign.products} revisions={revisions} exportsSettled={progress.settled} />
    </Stack>
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
