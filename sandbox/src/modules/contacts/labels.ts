/**
 * Contact labels — /v1/crm/contacts/labels… Create answers 201 { id }; update
 * and delete answer an empty body (their responses are not shown). Deleting a
 * label clears it on its contacts.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { empty, intParam, json, notFound, objectBody, type Ctx, type Reply } from '../../http';
import { validate, type Schema } from '../../validate';
import { checkOwner } from '../crm-users';

const LABEL_SCHEMA: Schema = {
	name: 'string',
	color: 'string',
	icon: 'string',
	owner_id: 'integer',
};

export const listLabels = (env: Env, ctx: Ctx<Session>): Reply =>
	json(200, tenantOf(env, ctx).labels.values());

export function postLabel(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = validate(objectBody(ctx), LABEL_SCHEMA, ['name']);
	checkOwner(tenant, input.owner_id);
	const id = env.store.nextInt('label');
	tenant.labels.set(id, {
		id,
		name: input.name,
		color: input.color ?? null,
		icon: input.icon ?? null,
		owner_id: input.owner_id ?? ctx.session.userId,
		tenant_id: tenant.id,
	});
	return json(201, { id });
}

export function getLabel(env: Env, ctx: Ctx<Session>): Reply {
	const label = tenantOf(env, ctx).labels.get(intParam(ctx));
	if (!label) throw notFound('Contact label', ctx.params.id);
	return json(200, label);
}

export function putLabel(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const label = tenant.labels.get(intParam(ctx));
	if (!label) throw notFound('Contact label', ctx.params.id);
	const input = validate(objectBody(ctx), LABEL_SCHEMA);
	checkOwner(tenant, input.owner_id);
	for (const k of Object.keys(LABEL_SCHEMA)) if (k in input) label[k] = input[k];
	tenant.labels.touch();
	return empty(201);
}

export function deleteLabel(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const id = intParam(ctx);
	if (!tenant.labels.delete(id)) throw notFound('Contact label', id);
	for (const c of tenant.contacts.values()) if (c.label_id === id) c.label_id = null;
	tenant.contacts.touch();
	return empty(200);
}
