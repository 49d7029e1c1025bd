import type { Line } from '../../resources/common/line-items';
import { money } from './parts';

/** An estimate's or an invoice's lines, as the contractor's record page lists them. */
export function Lines({ lines }: { lines: readonly Line[] }) {
  return (
    <table>
      <thead>
        <tr>
          <th>Item</th>
          <th class="money">Qty</th>
          <th class="money">Unit price</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr>
            <td>{l.name}</td>
            <td class="money">{l.quantity}</td>
            <td class="money">{l.unit_price === null ? '' : money(l.unit_price)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
