// How the generator writes zod's `.nullable()` and how clients read it disagree twice. On a union
// it comes out as one more branch, `{nullable: true}`: a schema with no type, which in OpenAPI 3.0
// accepts anything, so generated clients type the field `unknown` and linters refuse it (redocly's
// nullable-type-sibling); here it is folded into its siblings, each of which takes null too. On
// an enumeration it adds `null` to the values, which Prism adds again (see enumWithoutNull).

type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A branch that says nothing but "null is allowed". */
const onlyNull = (s: unknown): boolean =>
  isObject(s) && s.nullable === true && Object.keys(s).length === 1;

/**
 * A nullable enumeration without `null` among its values: validators that read OpenAPI 3.0 add it
 * from `nullable` themselves (Prism does), and a second one makes the schema one they cannot
 * compile, so they check nothing against it.
 */
function enumWithoutNull(schema: Schema): Schema {
  return schema.nullable === true && Array.isArray(schema.enum) && schema.enum.includes(null)
    ? { ...schema, enum: schema.enum.filter((v) => v !== null) }
    : schema;
}

function fold(schema: Schema): Schema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || !branches.some(onlyNull)) {
    return schema;
  }
  // A branch that is itself a union (a list or a comma string) has no type to take null: its
  // own branches stand in its place.
  const typed = branches
    .filter((b) => !onlyNull(b))
    .flatMap((b) => (isObject(b) && b.type === undefined && Array.isArray(b.anyOf) ? b.anyOf : [b]))
    .map((b) => ({ ...(b as Schema), nullable: true }));
  const { anyOf: _, ...rest } = schema;
  // One typed branch left: it is the schema, with what the union said about itself.
  return typed.length === 1 ? { ...typed[0], ...rest } : { ...rest, anyOf: typed };
}

/** Every schema of a document, its typeless nullable branches folded into their siblings. */
export function typedNullables<T>(doc: T): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value.map(walk);
    }
    if (!isObject(value)) {
      return value;
    }
    const out: Schema = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] = walk(child);
    }
    return enumWithoutNull(fold(out));
  };
  return walk(doc) as T;
}
