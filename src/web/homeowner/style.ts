// The homeowner pages' own styles, beside the app's one stylesheet: the package cards of an
// estimate, the typed signature, the progress of a project.
export const HOMEOWNER_STYLE = `
.tiers{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:.6rem}
.tier h3{margin:0 0 .3rem;font-size:1.05rem}
.tier.chosen{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.tier ul{margin:.3rem 0 0;padding-left:1.1rem;font-size:.9rem}
.tier-total{font-size:1.3rem;font-weight:600;margin:.2rem 0;font-variant-numeric:tabular-nums}
.big-total{font-size:1.2rem;text-align:right}
input.signature{font-family:"Segoe Script","Brush Script MT",cursive;font-size:1.3rem;width:100%}
ol.progress{list-style:none;padding:0;margin:.8rem 0 0}
dl.totals{margin:.8rem 0 0 auto;max-width:20rem}
dl.totals dd{text-align:right}
`;
