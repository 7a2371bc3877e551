/**
 * Beneficiaries (the payment side of a user): beneficiariesToAdd counts users
 * with no beneficiaryId whose beneficiary sync is not already PENDING;
 * sync-beneficiaries marks those users PENDING. beneficiary-status: `operation`
 * becomes the users' beneficiaryStatus, `reason` the beneficiaryReason, `beneId`
 * (when given) the beneficiaryId.
 */
import type { Session } from '../../auth';
import { tenantOf, type Env } from '../../env';
import { json, objectBody, type Ctx, type Reply } from '../../http';
import type { Doc, Tenant } from '../../state';
import { validate, validateEach } from '../../validate';
import { getUser } from '../gateway';

const awaitsBeneficiary = (u: Doc) => !u.beneficiaryId && u.beneficiaryStatus !== 'PENDING';

export const beneficiariesToAdd = (tenant: Tenant) =>
	tenant.peopleUsers.values().filter(awaitsBeneficiary).length;

/** PUT /v1/people/users/beneficiary-status */
export function putBeneficiaryStatus(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	const input = validate(objectBody(ctx), { beneficiaryStatusInfo: 'object[]' }, [
		'beneficiaryStatusInfo',
	]);
	const infos = validateEach(
		input.beneficiaryStatusInfo as unknown[],
		{ beneficiaryDetails: 'object[]', operation: 'string' },
		'beneficiaryStatusInfo',
		['beneficiaryDetails', 'operation'],
	);
	const updates = infos.flatMap((info, i) =>
		validateEach(
			info.beneficiaryDetails as unknown[],
			{ userId: 'string', reason: 'string', beneId: 'string' },
			`beneficiaryStatusInfo[${i}].beneficiaryDetails`,
			['userId'],
		).map((d): Doc => ({ ...d, operation: info.operation as string })),
	);
	for (const d of updates) getUser(tenant, d.userId as string);
	for (const d of updates) {
		const u = tenant.peopleUsers.get(d.userId as string)!;
		u.beneficiaryStatus = d.operation;
		u.beneficiaryReason = (d.reason as string | null) ?? '';
		if (d.beneId) u.beneficiaryId = d.beneId;
	}
	tenant.peopleUsers.touch();
	return json(200, { status: 'success' });
}

/** POST /v1/people/users/sync-beneficiaries */
export function syncBeneficiaries(env: Env, ctx: Ctx<Session>): Reply {
	const tenant = tenantOf(env, ctx);
	objectBody(ctx, false);
	const pending = tenant.peopleUsers.values().filter(awaitsBeneficiary);
	for (const u of pending) {
		u.beneficiaryStatus = 'PENDING';
		u.beneficiaryReason = '';
	}
	tenant.peopleUsers.touch();
	return json(200, { status: `Beneficiary sync initiated for ${pending.length} user(s)` });
}
