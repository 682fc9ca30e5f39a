/** A JSON answer as the bff sends it. */
export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A successful envelope around `data`. */
export const ok = (data: unknown) => json({ success: true, message: '', data, errors: [] });
