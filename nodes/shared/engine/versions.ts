/**
 * Node versions. A change that would break saved workflows (a renamed parameter, a new
 * type, default or option values) is made in a new node version, the way n8n's own
 * nodes do it: the node lists `version: [1, 2]` (and `defaultVersion: 2`), the old
 * property keeps `displayOptions.show['@version']: [1]` and the new one is shown from
 * version 2 (`[{ _cnd: { gte: 2 } }]`). Both may have the same name: the request
 * builder reads only the fields shown for the node's version (`shownInVersion`, engine/params.ts).
 * See CONTRIBUTING.md.
 */
import type { INodeProperties } from 'n8n-workflow';

type Conditions = NonNullable<INodeProperties['displayOptions']>['show'];

type Show = NonNullable<Conditions>;

const withVersions = (property: INodeProperties, versions: Show['@version']): INodeProperties => ({
	...property,
	displayOptions: {
		...(property.displayOptions ?? {}),
		show: { ...(property.displayOptions?.show ?? {}), '@version': versions },
	},
});

/** The property as released in version 1, shown only to nodes of version 1 (saved workflows). */
export const inVersion1 = (property: INodeProperties): INodeProperties =>
	withVersions(property, [1]);

/** The property shown from this node version on. */
export const fromVersion = (version: number, property: INodeProperties): INodeProperties =>
	withVersions(property, [{ _cnd: { gte: version } }]);
