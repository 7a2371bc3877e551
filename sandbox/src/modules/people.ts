import type { Module } from '../module';

export const people: Module = {
	name: 'people',
	routes() {},
};
