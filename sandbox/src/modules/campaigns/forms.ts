/**
 * Campaign forms — /v1/crm/campaign/assets/forms… and form-templates/:id.
 * Forms have only the documented fields (id, name, raw, template); their
 * creation and update endpoints are not documented, so forms are seeded only.
 * GET form-templates/{id} answers the markup of form {id} as a whole HTML
 * document (the editor's html with its css in a <style> element). The forms
 * list envelope is only {data}: pages start at 1 and a client pages until a
 * page is shorter than `limit`.
 */
import type { Session } from '../../auth';
import { pageOf, tenantOf, type Env } from '../../env';
import { empty, intParam, json, notFound, text, type Ctx, type Reply } from '../../http';
import { getByIdRoute } from '../../module';
import { sortBy, textMatch, type Doc, type Tenant } from '../../state';

const FORM_KINDS = [
	'Newsletter signup',
	'Contact us',
	'Event registration',
	'Demo request',
	'Feedback',
];

function formMarkup(name: string, id: number): { html: string; css: string } {
	const html =
		`<form class="pf-form" id="pf-form-${id}" method="post">` +
		`<h2 class="pf-title">${name}</h2>` +
		'<label class="pf-label">Name<input class="pf-input" type="text" name="name" required></label>' +
		'<label class="pf-label">Email<input class="pf-input" type="email" name="email" required></label>' +
		'<button class="pf-button" type="submit">Submit</button>' +
		'</form>';
	const css =
		'.pf-form{max-width:420px;padding:24px;font-family:Arial,sans-serif;border:1px solid #ddd;border-radius:8px}' +
		'.pf-title{margin:0 0 16px;font-size:20px}.pf-label{display:block;margin-bottom:12px}' +
		'.pf-input{display:block;width:100%;padding:8px}.pf-button{padding:8px 16px;background:#1e88e5;color:#fff;border:0}';
	return { html, css };
}

function newForm(env: Env, tenant: Tenant, name: string): Doc {
	const id = env.store.nextInt('form');
	const { html, css } = formMarkup(name, id);
	const template = JSON.stringify({
		html,
		components: [
			{
				tagName: 'form',
				classes: ['pf-form'],
				attributes: { id: `pf-form-${id}` },
				components: [{ tagName: 'h2', content: name }],
			},
		],
		assets: [],
		css,
		styles: [{ selectors: ['pf-form'], style: { 'max-width': '420px', padding: '24px' } }],
	});
	return tenant.forms.set(id, {
		id,
		name,
		raw: `<div style="font-family:Arial,sans-serif">${html}</div><style>${css}</style>`,
		template,
	});
}

function getForm(tenant: Tenant, id: number): Doc {
	const f = tenant.forms.get(id);
	if (!f) throw notFound('Form', id);
	return f;
}

/** The whole HTML document of a form, from the html and css of its editor description. */
function formDocument(form: Doc): string {
	let html = form.raw as string;
	let css = '';
	try {
		const t = JSON.parse(form.template as string) as { html?: unknown; css?: unknown };
		if (typeof t.html === 'string') html = t.html;
		if (typeof t.css === 'string') css = t.css;
	} catch {
		// keep raw
	}
	return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${form.name as string}</title><style>${css}</style></head><body>${html}</body></html>`;
}

export const getFormTemplate = (env: Env, ctx: Ctx<Session>): Reply =>
	text(200, formDocument(getForm(tenantOf(env, ctx), intParam(ctx))), 'text/html; charset=utf-8');

export function listForms(env: Env, ctx: Ctx<Session>): Reply {
	const search = ctx.query.str('search');
	const all = tenantOf(env, ctx).forms.query(JSON.stringify([search]), (items) =>
		sortBy(
			items.filter((f) => !search || textMatch(f.name, search)),
			'id',
			'asc',
		),
	);
	return json(200, { data: pageOf(env, ctx, all).items });
}

export const getFormRoute = getByIdRoute(getForm);

export function deleteForm(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	getForm(tenant, id);
	tenant.forms.delete(id);
	return empty(204);
}

export function seedForms(env: Env, tenant: Tenant, rows: number, suffix: string): void {
	for (let i = 0; i < rows; i++)
		newForm(env, tenant, `${FORM_KINDS[i % FORM_KINDS.length]} ${i + 1}${suffix}`);
}
