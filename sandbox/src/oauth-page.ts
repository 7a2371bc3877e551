/**
 * The sandbox's OAuth authorization page (GET /oauth/authorize, and its form's POST): the user picks an identity
 * and approves or denies; the answer goes back to the redirect_uri with a code or `access_denied`.
 */
import type { Auth, Session } from './auth';
import { text, type Ctx, type Reply, type Router } from './http';

/** GET and POST /oauth/authorize. */
export function registerAuthorizePage(router: Router<Session>, auth: Auth): void {
	router.add('GET', '/oauth/authorize', (ctx) => authorizePage(auth, ctx), { auth: 'none' });
	router.add('POST', '/oauth/authorize', (ctx) => authorizePage(auth, ctx), { auth: 'none' });
}

/** GET authorization page, POST approval, and auto_approve=true for scripts. */
export function authorizePage(auth: Auth, ctx: Ctx<unknown>): Reply {
	const q = ctx.query;
	const form = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<string, string>;
	const p = (k: string) => form[k] ?? q.str(k);
	const clientId = p('client_id');
	const redirectUri = p('redirect_uri');
	const state = p('state');
	const scope = p('scope') ?? 'write';
	if (p('response_type') !== 'code')
		return text(
			400,
			page('Invalid request', '<p>response_type must be <code>code</code>.</p>'),
			'text/html; charset=utf-8',
		);
	if (clientId !== auth.config.clientId)
		return text(
			400,
			page('Unknown application', '<p>The client_id is not registered with this sandbox.</p>'),
			'text/html; charset=utf-8',
		);
	const approve =
		ctx.method === 'POST' ? form.decision === 'approve' : q.bool('auto_approve') === true;
	const deny = ctx.method === 'POST' && form.decision !== 'approve';
	if (approve || deny) {
		if (!redirectUri)
			return text(
				400,
				page(
					'Missing redirect_uri',
					'<p>This sandbox needs a redirect_uri to send the code to.</p>',
				),
				'text/html; charset=utf-8',
			);
		const target = new URL(redirectUri);
		if (approve) {
			target.searchParams.set(
				'code',
				auth.createCode(auth.identity(p('user')), clientId, redirectUri, scope),
			);
			target.searchParams.set('scope', scope);
		} else {
			target.searchParams.set('error', 'access_denied');
		}
		if (state !== undefined) target.searchParams.set('state', state);
		return { status: 302, headers: { location: target.toString() } };
	}
	const hidden = Object.entries({
		response_type: 'code',
		client_id: clientId,
		redirect_uri: redirectUri ?? '',
		state: state ?? '',
		scope,
	})
		.map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}">`)
		.join('');
	const users = auth.identities
		.map(
			(i, n) =>
				`<label><input type="radio" name="user" value="${escapeHtml(i.username)}"${n === 0 ? ' checked' : ''}> ${escapeHtml(i.email)} (${escapeHtml(i.org)})</label><br>`,
		)
		.join('');
	return text(
		200,
		page(
			'Authorize application',
			`<p>The application <b>${escapeHtml(clientId)}</b> asks for <b>${escapeHtml(scope)}</b> access to your Business Platform data.</p>
<form method="post">${hidden}<fieldset><legend>Sign in as</legend>${users}</fieldset>
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`,
		),
		'text/html; charset=utf-8',
	);
}

function escapeHtml(s: string): string {
	return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** An HTML page of the sandbox. Its empty icon keeps a browser from asking for /favicon.ico, which is no endpoint of the contract. */
function page(title: string, content: string): string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>${title} · Business Platform sandbox</title><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto}button{margin-right:1rem;padding:.5rem 1rem}</style></head>
<body><h1>${title}</h1>${content}<p><small>Business Platform sandbox: a local simulator, not the real service.</small></p></body></html>`;
}
