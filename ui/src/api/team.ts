import { newIdempotencyKey, type ApiClient } from './ApiClient';
import type { Envelope } from './envelope';

/** A member of the seller's team with the named permissions they hold. */
export interface TeamMember {
  id: number;
  name: string;
  email: string;
  role: string;
  permissions: string[];
  created_at: string;
}

/** An open invitation to a seller's team. */
export interface TeamInvitation {
  id: number;
  seller_id: number;
  seller_name: string;
  email: string;
  permissions: string[];
  created_at: string;
}

async function message(api: ApiClient, method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<string> {
  return (await api.send<Envelope<unknown>>(method, path, { body, idempotencyKey })).message;
}

export const teamMembers = (api: ApiClient, signal?: AbortSignal) => api.get<TeamMember[]>('/team/members', { signal });
export const sentInvitations = (api: ApiClient, signal?: AbortSignal) =>
  api.get<TeamInvitation[]>('/team/invitations', { signal });
export const receivedInvitations = (api: ApiClient, signal?: AbortSignal) =>
  api.get<TeamInvitation[]>('/team/invitations/received', { signal });
export const inviteMember = (api: ApiClient, email: string, permissions: string[]) =>
  message(api, 'POST', '/team/invitations', { email, permissions }, newIdempotencyKey());
export const acceptInvitation = (api: ApiClient, id: number) => message(api, 'POST', `/team/invitations/${id}/accept`);
export const setMemberPermissions = (api: ApiClient, id: number, permissions: string[]) =>
  message(api, 'PUT', `/team/members/${id}`, { permissions });
export const removeMember = (api: ApiClient, id: number) => message(api, 'DELETE', `/team/members/${id}`);
