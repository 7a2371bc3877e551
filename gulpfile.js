// Copies the node and credential icons next to the compiled code in dist/.
const { src, dest } = require('gulp');

function buildIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
