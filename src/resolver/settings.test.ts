import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { defaultFeatureGates, defaultSettings, parseFeatureGates, validateSettings } from "./settings.ts";
import type { Settings } from "./types.ts";

describe("parseFeatureGates", () => {
  const ok: readonly [string, Partial<typeof defaultFeatureGates>][] = [
    ["", {}],
    ["IAMRoleSelector=true", { IAMRoleSelector: true }],
    ["TeamLevelCARM=true,ServiceLevelCARM=true", { TeamLevelCARM: true, ServiceLevelCARM: true }],
    [" ResourceLevelCARM = TRUE , ", { ResourceLevelCARM: true }],
    ["TeamLevelCARM=true,TeamLevelCARM=false", { TeamLevelCARM: false }],
  ];
  for (const [text, expected] of ok) {
    test(`${JSON.stringify(text)} parses`, () => {
      assert.deepEqual(parseFeatureGates(text), { ok: true, value: { ...defaultFeatureGates, ...expected } });
    });
  }

  const bad: readonly [string, RegExp][] = [
    ["Foo=true", /unknown feature gate "Foo".*known gates: IAMRoleSelector/],
    ["IAMRoleSelector", /not of the form Name=true\|false/],
    ["IAMRoleSelector=yes", /IAMRoleSelector has value "yes"; use true or false/],
    ["iamroleselector=true", /unknown feature gate "iamroleselector"/],
  ];
  for (const [text, message] of bad) {
    test(`${JSON.stringify(text)} is a named error`, () => {
      const result = parseFeatureGates(text);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.equal(result.errors[0]!.flag, "--feature-gates");
        assert.match(result.errors[0]!.message, message);
      }
    });
  }

  test("every bad item is reported, not only the first", () => {
    const result = parseFeatureGates("A=true,B=false,TeamLevelCARM=true");
    assert.equal(result.ok ? 0 : result.errors.length, 2);
  });
});

describe("validateSettings", () => {
  test("the defaults are valid", () => {
    assert.deepEqual(validateSettings(defaultSettings), []);
  });

  test("IAMRoleSelector=true with CARM enabled is an error naming both flags", () => {
    const settings: Settings = {
      ...defaultSettings,
      featureGates: { ...defaultFeatureGates, IAMRoleSelector: true },
    };
    const errors = validateSettings(settings);
    assert.equal(errors.length, 1);
    assert.match(errors[0]!.message, /--feature-gates IAMRoleSelector=true/);
    assert.match(errors[0]!.message, /--enable-carm/);
    assert.deepEqual(validateSettings({ ...settings, enableCARM: false }), []);
  });

  test("an unknown gate smuggled into the record is named", () => {
    const gates = { ...defaultFeatureGates, Bogus: true } as unknown as Settings["featureGates"];
    assert.match(
      validateSettings({ ...defaultSettings, featureGates: gates })[0]!.message,
      /unknown feature gate "Bogus"/,
    );
  });

  const badValues: readonly [Partial<Settings>, string][] = [
    [{ controllerAccount: "123" }, "--controller-account"],
    [{ defaultRegion: "Europe" }, "--aws-region"],
    [{ defaultEndpoint: "not a url" }, "--aws-endpoint-url"],
    [{ systemNamespace: "" }, "--system-namespace"],
    [{ accountDriftPolicy: "ignore" as Settings["accountDriftPolicy"] }, "--account-drift-policy"],
  ];
  for (const [patch, flag] of badValues) {
    test(`a bad ${flag} is named`, () => {
      const errors = validateSettings({ ...defaultSettings, ...patch });
      assert.deepEqual(
        errors.map((e) => e.flag),
        [flag],
      );
    });
  }
});
