// `npm pack`: the package's package.json is the repository's without what only the repository
// runs. Its `prepare` (the build) would be an install script to every project that installs svc,
// which npm asks them to review; the package ships dist/ built and needs no script, and no
// development dependency. prepack writes that package.json; postpack puts the repository's back
// (a pack stopped halfway leaves the repository's beside it, which the next pack takes back).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const SAVED = '.package.json.repo';

if (existsSync(SAVED)) {
  renameSync(SAVED, 'package.json');
}
if (process.argv[2] !== '--restore') {
  const text = readFileSync('package.json', 'utf8');
  writeFileSync(SAVED, text);
  const { scripts, devDependencies, allowScripts, scarfSettings, ...published } = JSON.parse(text);
  writeFileSync('package.json', `${JSON.stringify(published, null, 2)}\n`);
}
