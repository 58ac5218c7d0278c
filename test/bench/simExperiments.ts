// Option edits tried by `npm run bench:sim -- --explore`: each is applied to the exported scene file and stepped
// by both engines, to see which parts of the physics make the WebAssembly build fall behind native. They are
// experiments, not proposals: several change the physics (docs/simulator.md says which were kept and why).
export interface Experiment {
  name: string;
  edit(xml: string): string;
}

const option = (xml: string, attrs: string) => xml.replace(/<option /, `<option ${attrs} `);

export const EXPERIMENTS: Experiment[] = [
  { name: 'as shipped', edit: (x) => x },
  { name: 'no contact sensors', edit: (x) => x.replace(/\n\s*<sensor>[\s\S]*?<\/sensor>/, '').replace(/\n\s*<sensor\/>/, '') },
  { name: 'multiccd off', edit: (x) => x.replace(/\s*<flag multiccd="enable"\/>/, '') },
  { name: 'pyramidal cone', edit: (x) => x.replace('cone="elliptic"', 'cone="pyramidal"') },
  { name: 'impratio 1', edit: (x) => x.replace('impratio="10"', 'impratio="1"') },
  { name: 'CG solver', edit: (x) => option(x, 'solver="CG"') },
  { name: 'solver iterations 20, ls 10', edit: (x) => option(x, 'iterations="20" ls_iterations="10"') },
  { name: 'tolerance 1e-6', edit: (x) => option(x, 'tolerance="1e-6"') },
  { name: 'dense jacobian', edit: (x) => option(x, 'jacobian="dense"') },
  { name: 'sparse jacobian', edit: (x) => option(x, 'jacobian="sparse"') },
  { name: 'Euler integrator', edit: (x) => x.replace('integrator="implicitfast"', 'integrator="Euler"') },
  { name: 'no warmstart', edit: (x) => x.replace(/<flag /, '<flag warmstart="disable" ') },
];
