import { expect, test } from "vitest";
import { vaultFtsQuery } from "./vault-fts-query.js";

test("words are quoted and deduplicated, and the mode joins them", () => {
  expect(vaultFtsQuery("Deploy to the API", "all")).toBe('"deploy" "to" "the" "api"');
  expect(vaultFtsQuery("oauth token oauth", "any")).toBe('"oauth" OR "token"');
  expect(vaultFtsQuery('"; DROP NEAR( x*', "all")).toBe('"drop" "near" "x"');
  expect(vaultFtsQuery("!!!", "any")).toBeNull();
});
