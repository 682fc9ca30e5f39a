// The campaign editor's wiring: the editor state (editor/model) in a reducer, its keys, and what the editor reads
// from and sends to the bff (fonts, artworks and cliparts, extra print cost, exports, product changes, save).

import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { api, isApiError, type FieldError } from '../api';
import { FONTS_KEY, listFonts } from '../api/fonts';
import { addProduct, calcExtraPrintCost, listExports, removeProduct, saveCampaign, type Campaign, type CampaignUpdate } from '../api/campaigns';
import { actionForKey, type KeyScope, type Performance } from '../editor/model/actions';
import type { Size } from '../editor/model';
import { editorReducer } from '../editor/model/reducer';
import { documentsOf, initialState, isDirty, type EditorState } from '../editor/model/state';
import { toastDuration } from '../feedback/toast';
import { ARTWORKS_KEY, listArtworks } from '../api/artworks';
import type { Clipart } from '../api/cliparts';
import type { Upload } from '../uploads/api';
import { notifyUploadFailed } from '../uploads/notify';
import { uploadFile } from '../uploads/uploader';
import { checkBeforeSave, exportPollInterval, exportProgress, objectCounts, placeErrors, saveBody, type Documents } from './editorState';
import { clearDrafts, readDraft, writeDraft, type LocalDraft } from './localDraft';
import { CAMPAIGNS_KEY, campaignQuery } from './queries';

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

/** Whether a key press is typing in a form field, where page keys (undo, redo) are left to the field. */
function inFormField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable;
}

/** The browser's localStorage, or null where it is disabled. */
function localStore(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Keeps the unsaved work in the browser as it changes and forgets it once saved; a draft found on opening is
 * offered back (`offer`) and nothing is written over it until the seller restores or discards it.
 */
function useLocalDraft(state: EditorState, perform: (action: Performance) => void, readOnly: boolean) {
  const [offer, setOffer] = useState<LocalDraft | null>(() => {
    const storage = localStore();
    return storage && !readOnly ? readDraft(storage, state.campaign) : null;
  });
  const dirty = isDirty(state);
  const docs = documentsOf(state);
  const { campaign, draft } = state;
  useEffect(() => {
    const storage = localStore();
    if (!storage || offer || readOnly) return;
    if (dirty) writeDraft(storage, campaign, { savedAt: new Date().toISOString(), draft, docs });
    else clearDrafts(storage, campaign.id);
  }, [offer, readOnly, dirty, docs, draft, campaign]);
  return {
    offer,
    restore: () => {
      if (offer) perform({ name: 'restoreDraft', value: { docs: offer.docs, draft: offer.draft } });
      setOffer(null);
    },
    discard: () => setOffer(null),
  };
}

/** The editor of a loaded campaign: its state, how to change it and the bff's answers around it. */
export function useCampaignEditor(initial: Campaign, readOnly = false) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(editorReducer, initial, initialState);
  const { campaign, revisions } = state;
  const docs = documentsOf(state);

  const perform = useCallback((action: Performance) => dispatch({ type: 'perform', ...action }), []);
  const localDraft = useLocalDraft(state, perform, readOnly);

  // Keys: the page's anywhere but in form fields, the canvas's while it has the focus; both from the registry.
  const latest = useRef<EditorState>(state);
  useEffect(() => {
    latest.current = state;
  });
  const onKey = useCallback((event: KeyboardEvent, scope: KeyScope) => {
    const action = actionForKey(event, latest.current, scope);
    if (!action) return;
    event.preventDefault();
    dispatch({ type: 'perform', ...action });
  }, []);
  useEffect(() => {
    const onPageKey = (event: KeyboardEvent) => {
      if (!inFormField(event.target)) onKey(event, 'page');
    };
    document.documentElement.addEventListener('keydown', onPageKey);
    return () => document.documentElement.removeEventListener('keydown', onPageKey);
  }, [onKey]);
  const onCanvasKey = useCallback((event: { nativeEvent: KeyboardEvent }) => onKey(event.nativeEvent, 'canvas'), [onKey]);

  const fonts = useQuery({ queryKey: FONTS_KEY, queryFn: ({ signal }) => listFonts(api, signal) });
  const uploads = useQuery({
    queryKey: [...ARTWORKS_KEY, 'editor'],
    queryFn: ({ signal }) => listArtworks(api, { folder: 'all', q: '', page: 1 }, signal),
    placeholderData: keepPreviousData,
  });
  const readyUploads = useMemo(() => (uploads.data?.data ?? []).filter((u) => u.status === 'ready'), [uploads.data]);
  /** The natural sizes of artworks by src: the uploads', then what the editor learnt itself. */
  const knownSizes = useMemo(() => {
    const sizes: Record<string, Size> = {};
    for (const u of readyUploads) if (u.width && u.height) sizes[u.filePath] = { width: u.width, height: u.height };
    return { ...sizes, ...state.naturals };
  }, [readyUploads, state.naturals]);

  /** Places an upload: replaces the selected image, or adds it. */
  const place = useCallback(
    (upload: Upload) => {
      if (!upload.width || !upload.height) {
        notifications.show({ color: 'red', message: `${upload.file_name} has no known size yet.` });
        return;
      }
      perform({ name: 'pickUpload', value: { src: upload.filePath, width: upload.width, height: upload.height } });
    },
    [perform],
  );
  /** Places a clipart of the library: its print-size file, like an upload. */
  const placeClipart = useCallback(
    (clipart: Clipart) => {
      if (!clipart.width || !clipart.height) {
        notifications.show({ color: 'red', message: `${clipart.name} has no known size yet.` });
        return;
      }
      perform({ name: 'pickUpload', value: { src: clipart.key, width: clipart.width, height: clipart.height } });
    },
    [perform],
  );
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile(api, file, { filePath: 'artworks' }),
    onSuccess: place,
    onError: notifyUploadFailed,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ARTWORKS_KEY }),
  });

  const productChange = useMutation({
    mutationFn: (op: { add: number } | { remove: number }) =>
      'add' in op ? addProduct(api, campaign.id, op.add) : removeProduct(api, campaign.id, op.remove),
    onSuccess: (next, op) => {
      queryClient.setQueryData(campaignQuery(next.id).queryKey, next);
      dispatch({ type: 'productsChanged', campaign: next, op });
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });

  const counts = useMemo(() => objectCounts(state.products, docs), [state.products, docs]);
  const [debouncedCounts] = useDebouncedValue(counts, 300);
  const extraCost = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'extra-print-cost', campaign.id, debouncedCounts],
    queryFn: () => calcExtraPrintCost(api, campaign.id, debouncedCounts),
    placeholderData: keepPreviousData,
  });
  const extraOf = (id: number) => extraCost.data?.find((c) => c.id === id)?.extra_print_cost ?? 0;

  const exports = useQuery({
    queryKey: [...CAMPAIGNS_KEY, 'exports', campaign.id, revisions],
    queryFn: ({ signal }) => listExports(api, campaign.id, signal),
    refetchInterval: (query) => exportPollInterval(query.state.data, revisions),
    placeholderData: keepPreviousData,
  });
  const progress = exportProgress(exports.data ?? [], revisions);

  const save = useMutation({
    mutationFn: async ({ body }: { body: CampaignUpdate; sent: { docs: Documents; draft: EditorState['draft'] } }) => {
      const problems = checkBeforeSave(campaign.products, body);
      if (problems.length > 0) throw new SaveCheckError(problems, body);
      return saveCampaign(api, campaign.id, body);
    },
    onSuccess: (next, { sent }) => {
      dispatch({ type: 'saved', campaign: next, sent });
      queryClient.setQueryData(campaignQuery(next.id).queryKey, next);
      void queryClient.invalidateQueries({ queryKey: [...CAMPAIGNS_KEY, 'list'] });
      notifications.show({ color: 'green', message: 'Campaign saved. Making the print files…' });
      for (const w of next.warnings ?? []) notifications.show({ color: 'yellow', title: 'Trademark', message: w.message });
    },
    onError: (error, { body }) => {
      const fieldErrors = error instanceof SaveCheckError || isApiError(error) ? error.fieldErrors : [];
      const placed = placeErrors(fieldErrors, campaign.products, body);
      dispatch({ type: 'saveRefused', errors: placed });
      const messages = [error.message, ...placed.general.filter((m) => m !== error.message)];
      notifications.show({
        color: 'red',
        title: 'The campaign was not saved',
        message: messages.join('\n'),
        autoClose: toastDuration('error', messages),
      });
    },
  });
  const onSave = () =>
    save.mutate({ body: saveBody(campaign.products, state.draft, docs), sent: { docs, draft: state.draft } });

  return {
    state,
    perform,
    localDraft,
    onCanvasKey,
    fonts: fonts.data ?? [],
    readyUploads,
    knownSizes,
    place,
    placeClipart,
    upload,
    productChange,
    extraOf,
    exports,
    progress,
    save,
    onSave,
  };
}
