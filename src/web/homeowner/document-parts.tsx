import type { LineView, Party } from './documents';
import { money, quantity } from './format';

// Parts the estimate and pay pages share: who the document is from and for, and a table of lines.

export function PartyFacts({
  party,
  number,
  label,
}: {
  party: Party;
  number: string;
  label: string;
}) {
  return (
    <dl class="facts">
      <dt>From</dt>
      <dd>{party.company}</dd>
      {party.customer ? (
        <>
          <dt>For</dt>
          <dd>{party.customer}</dd>
        </>
      ) : null}
      {party.address ? (
        <>
          <dt>Property</dt>
          <dd>{party.address}</dd>
        </>
      ) : null}
      <dt>{label}</dt>
      <dd class="mono">{number}</dd>
    </dl>
  );
}

export function Lines({ lines, total }: { lines: readonly LineView[]; total?: number | null }) {
  const priced = lines.some((l) => l.unitPrice !== null);
  return (
    <table>
      <thead>
        <tr>
          <th>Item</th>
          {priced ? (
            <>
              <th class="money">Qty</th>
              <th class="money">Price</th>
              <th class="money">Amount</th>
            </>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr>
            <td>{l.name}</td>
            {priced ? (
              <>
                <td class="money">{quantity(l.quantity)}</td>
                <td class="money">{money(l.unitPrice)}</td>
                <td class="money">{money(l.amount)}</td>
              </>
            ) : null}
          </tr>
        ))}
        {total !== undefined && priced ? (
          <tr>
            <th colspan={3}>Total</th>
            <th class="money">{money(total)}</th>
          </tr>
        ) : null}
      </tbody>
    </table>
  );
}
