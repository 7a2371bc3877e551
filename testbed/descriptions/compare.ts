/**
 * Compares a committed description snapshot with the current one.
 *
 * Breaking (a saved workflow of that version would change meaning or fail):
 *   - a node version, or a parameter path, that is gone (removed, renamed, or no
 *     longer shown for its resource and operation);
 *   - a changed type or default; an option value or a resource-locator mode removed;
 *   - changed conditions for showing it (a saved value could be dropped);
 *   - a single value becoming a list or back (fixed collection `multipleValues`);
 *   - a parameter that becomes required, or a new required one without a default;
 *   - expressions forbidden (`noDataExpression`) where they were allowed;
 *   - for the node: its name, credentials, inputs, outputs or webhooks; for a
 *     credential: its name or the credential it extends.
 * Additive (saved workflows keep working): new versions, parameters and options,
 * and changed wording (display names, descriptions, placeholders, hints), order,
 * pickers and the like.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Entry, Snapshot, VersionSnapshot } from './snapshot';

export interface Finding {
	/** `Business Platform Sales v1: contact › create › name` */
	where: string;
	what: string;
}

export interface Comparison {
	breaking: Finding[];
	additive: Finding[];
}

/** JSON with object keys sorted: key order means nothing to n8n. */
const canonical = (v: unknown): string =>
	JSON.stringify(v, (_k, x: unknown) =>
		x && typeof x === 'object' && !Array.isArray(x)
			? Object.fromEntries(Object.entries(x as IDataObject).sort(([a], [b]) => a.localeCompare(b)))
			: x,
	);
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);
const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
const isEmpty = (v: unknown) =>
	v === undefined ||
	v === null ||
	v === '' ||
	(Array.isArray(v) && v.length === 0) ||
	(typeof v === 'object' && v !== null && Object.keys(v).length === 0);

const optionValues = (e: Entry) =>
	Array.isArray(e.options)
		? (e.options as IDataObject[]).map((o) => ('value' in o ? o.value : o.name))
		: [];
const modeNames = (e: Entry) =>
	Array.isArray(e.modes) ? (e.modes as IDataObject[]).map((m) => m.name) : [];
const multiple = (e: Entry) => (e.typeOptions as IDataObject | undefined)?.multipleValues === true;

/** A sibling parameter (same resource and operation) of the current snapshot, and whether the old one lacked it. */
type Sibling = (name: string) => { entry: Entry; isNew: boolean } | undefined;

/**
 * Whether the conditions for showing a parameter changed only by conditions on sibling
 * parameters that are new (saved workflows have no value for them, so n8n gives them
 * their default) and whose default keeps the parameter shown: a `hide` on values other
 * than the default, a `show` that includes the default. Such a parameter shows for every
 * saved workflow exactly as before (for example the Columns mapper, hidden only when a
 * new "Cells" switch is moved off its default "Map Each Column").
 */
function shownAsBeforeForSavedWorkflows(old: Entry, now: Entry, sibling: Sibling): boolean {
	const o = (old.displayOptions ?? {}) as Record<string, IDataObject | undefined>;
	const n = (now.displayOptions ?? {}) as Record<string, IDataObject | undefined>;
	if (
		Object.keys(o).some((k) => k !== 'show' && k !== 'hide') ||
		Object.keys(n).some((k) => k !== 'show' && k !== 'hide')
	)
		return false;
	for (const kind of ['show', 'hide'] as const) {
		const before = o[kind] ?? {};
		const after = n[kind] ?? {};
		for (const key of Object.keys(before)) if (!same(before[key], after[key])) return false;
		for (const key of Object.keys(after).filter((k) => !(k in before))) {
			const s = sibling(key);
			const values = after[key];
			if (!s?.isNew || !Array.isArray(values)) return false;
			const atDefault = values.some((v) => same(v, s.entry.default));
			if (kind === 'show' ? !atDefault : atDefault) return false;
		}
	}
	return true;
}

/** What breaks saved workflows between two versions of one parameter. */
function breakingChanges(old: Entry, now: Entry, sibling: Sibling = () => undefined): string[] {
	const out: string[] = [];
	if (old.type !== now.type)
		out.push(`its type changed from ${show(old.type)} to ${show(now.type)}`);
	// A tool twin's Description (toolDescription) is wording a model reads, made from the operation's own wording
	// (nodes/shared/engine/tool-description.ts): a saved workflow relying on its default gets the better text.
	if (
		!same(old.default, now.default) &&
		!(old.name === 'toolDescription' && old.type === 'string' && now.type === 'string')
	)
		out.push(`its default changed from ${show(old.default)} to ${show(now.default)}`);
	const values = optionValues(now).map(canonical);
	for (const v of optionValues(old))
		if (!values.includes(canonical(v))) out.push(`option value ${show(v)} was removed or changed`);
	const modes = modeNames(now);
	for (const m of modeNames(old))
		if (!modes.includes(m)) out.push(`mode ${show(m)} was removed or renamed`);
	if (
		!same(old.displayOptions, now.displayOptions) &&
		!shownAsBeforeForSavedWorkflows(old, now, sibling)
	)
		out.push(
			`the conditions for showing it changed from ${show(old.displayOptions)} to ${show(now.displayOptions)}`,
		);
	if (multiple(old) !== multiple(now))
		out.push(`it changed between one value and a list (typeOptions.multipleValues)`);
	if (!old.required && now.required) out.push('it became required');
	if (!old.noDataExpression && now.noDataExpression)
		out.push('it no longer accepts expressions (noDataExpression)');
	return out;
}

const NODE_KEYS = ['name', 'inputs', 'outputs'];

function nodeChanges(old: IDataObject, now: IDataObject, kind: Snapshot['kind']): string[] {
	const out: string[] = [];
	for (const k of kind === 'node' ? NODE_KEYS : ['name', 'extends'])
		if (!same(old[k], now[k])) out.push(`its ${k} changed from ${show(old[k])} to ${show(now[k])}`);
	const creds = (n: IDataObject) =>
		((n.credentials as IDataObject[] | undefined) ?? []).map((c) => c.name);
	for (const c of creds(old))
		if (!creds(now).includes(c)) out.push(`credential ${show(c)} was removed`);
	const hooks = (n: IDataObject) =>
		((n.webhooks as IDataObject[] | undefined) ?? []).map((w) =>
			JSON.stringify([w.name, w.httpMethod, w.path]),
		);
	for (const w of hooks(old))
		if (!hooks(now).includes(w)) out.push(`webhook ${w} was removed or changed`);
	return out;
}

function compareVersion(
	where: string,
	kind: Snapshot['kind'],
	old: VersionSnapshot,
	now: VersionSnapshot,
	result: Comparison,
): void {
	for (const what of nodeChanges(old.node, now.node, kind)) result.breaking.push({ where, what });
	if (!same(old.node, now.node) && !nodeChanges(old.node, now.node, kind).length)
		result.additive.push({
			where,
			what: 'node settings changed (wording, subtitle, defaults and the like)',
		});
	for (const [path, entry] of Object.entries(old.parameters)) {
		const at = `${where}: ${path}`;
		const current = now.parameters[path];
		if (!current) {
			result.breaking.push({
				where: at,
				what: 'the parameter was removed or renamed, or is no longer shown for this resource and operation',
			});
			continue;
		}
		const prefix = path.split(' › ').slice(0, -1).join(' › ');
		const sibling: Sibling = (name) => {
			const at = prefix ? `${prefix} › ${name}` : name;
			return now.parameters[at]
				? { entry: now.parameters[at], isNew: !(at in old.parameters) }
				: undefined;
		};
		const changes = breakingChanges(entry, current, sibling);
		for (const what of changes) result.breaking.push({ where: at, what });
		if (!changes.length && !same(entry, current))
			result.additive.push({ where: at, what: 'wording or settings changed (not breaking)' });
	}
	for (const [path, entry] of Object.entries(now.parameters)) {
		if (path in old.parameters) continue;
		const at = `${where}: ${path}`;
		if (entry.required && isEmpty(entry.default))
			result.breaking.push({
				where: at,
				what: 'a new required parameter without a default: saved workflows have no value for it',
			});
		else result.additive.push({ where: at, what: 'new parameter' });
	}
	if (
		same(
			Object.keys(old.parameters).filter((p) => p in now.parameters),
			Object.keys(now.parameters).filter((p) => p in old.parameters),
		)
	)
		return;
	result.additive.push({ where, what: 'parameters are in another order' });
}

export function compareSnapshots(old: Snapshot, now: Snapshot | undefined): Comparison {
	const result: Comparison = { breaking: [], additive: [] };
	const label = (v: string) =>
		old.kind === 'node'
			? `${old.displayName} (${old.name}) v${v}`
			: `${old.displayName} (credential ${old.name})`;
	if (!now) {
		result.breaking.push({
			where: label(Object.keys(old.versions).join(', ')),
			what: `the ${old.kind} is no longer in the package`,
		});
		return result;
	}
	for (const [v, snap] of Object.entries(old.versions)) {
		if (!now.versions[v])
			result.breaking.push({
				where: label(v),
				what: 'this version is gone: saved workflows of this version could no longer be opened',
			});
		else compareVersion(label(v), old.kind, snap, now.versions[v], result);
	}
	for (const v of Object.keys(now.versions))
		if (!old.versions[v]) result.additive.push({ where: label(v), what: 'new version' });
	return result;
}

export const VERSION_ADVICE = 'add a node version (see CONTRIBUTING.md)';

/** The failure text: every breaking change with its parameter path, and what to do instead. */
export function breakingMessage(findings: Finding[], kind: Snapshot['kind']): string {
	const advice =
		kind === 'node'
			? `Saved workflows would break. Keep the parameter as it is and ${VERSION_ADVICE}: the old version keeps this parameter unchanged, the new one has the change.`
			: 'Saved credentials would break. Keep the property as it is (add a new property beside it), or add a new credential type (see CONTRIBUTING.md).';
	return [
		`${findings.length} change(s) would break saved workflows:`,
		...findings.map((f) => `  - ${f.where}: ${f.what}`),
		advice,
	].join('\n');
}
