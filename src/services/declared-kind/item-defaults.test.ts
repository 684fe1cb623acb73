import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { FieldCodecs } from "../shape-codec.ts";
import { itemDefaultsDropper } from "./item-defaults.ts";

// CloudWatch Logs' subscription filters: items by filterName, distribution ByLogStream by default.
const codecs: FieldCodecs = {
  subscriptionFilters: [
    "subscriptionFilters",
    {
      list: {
        object: {
          filterName: ["filterName", {}],
          destinationARN: ["destinationArn", {}],
          distribution: ["distribution", {}],
        },
      },
    },
  ],
  name: ["logGroupName", {}],
};
const declaration = {
  groups: [
    {
      set: "PutSubscriptionFilter",
      read: "DescribeSubscriptionFilters",
      items: { id: "filterName", list: "subscriptionFilters", defaults: { distribution: "ByLogStream" } },
      fields: { subscriptionFilters: {} },
    },
  ],
};

describe("itemDefaultsDropper", () => {
  const drop = itemDefaultsDropper(declaration, codecs);

  test("an item member holding its default is left out; any other value stays", () => {
    assert.deepEqual(
      drop({
        name: "g",
        subscriptionFilters: [
          { filterName: "a", distribution: "ByLogStream" },
          { filterName: "b", distribution: "Random" },
          { filterName: "c" },
        ],
      }),
      {
        name: "g",
        subscriptionFilters: [
          { filterName: "a" },
          { filterName: "b", distribution: "Random" },
          { filterName: "c" },
        ],
      },
    );
  });

  test("fields without the list, and kinds without item defaults, are left as they are", () => {
    const fields = { name: "g" };
    assert.deepEqual(drop(fields), fields);
    const none = itemDefaultsDropper({ groups: [] }, codecs);
    assert.equal(none(fields), fields);
  });

  test("a default naming no member of the items fails at once, naming it", () => {
    const bad = {
      groups: [
        {
          set: "PutSubscriptionFilter",
          read: "DescribeSubscriptionFilters",
          items: { id: "filterName", list: "x", defaults: { nope: "1" } },
          fields: { subscriptionFilters: {} },
        },
      ],
    };
    assert.throws(
      () => itemDefaultsDropper(bad, codecs),
      /items\.defaults names nope, no member of spec\.subscriptionFilters's items/,
    );
  });
});
