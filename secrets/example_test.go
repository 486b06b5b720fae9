package secrets_test

import (
	"context"
	"fmt"

	"github.com/skillkit-go/skillkit/secrets"
	"github.com/skillkit-go/skillkit/skill"
)

func ExampleVault() {
	ctx := context.Background()
	// A host uses secrets.NewVault(secrets.NewFSStore("skills"), nil)
	// with SKILL_SECRET_KEY in its environment; this example keeps everything
	// in memory with a key of its own.
	key, err := secrets.DeriveKey([]byte("example only: use openssl rand -base64 32"))
	if err != nil {
		panic(err)
	}
	kr, err := secrets.NewKeyring(key)
	if err != nil {
		panic(err)
	}
	v := secrets.NewVault(&secrets.MemStore{}, &secrets.Options{Keyring: kr})

	region := "eu"
	schema := []skill.EnvVar{ // what the skill declares, usually skill.Skill.Env
		{Name: "OCR_API_KEY", Required: true, Description: "key of the OCR service"},
		{Name: "OCR_REGION", Default: &region},
		{Name: "OCR_PROJECT", Required: true},
	}
	if err := v.Save(ctx, "ocr-reader", map[string]string{"OCR_API_KEY": "sk-example"}); err != nil {
		panic(err)
	}

	// What an admin screen shows: never a value.
	statuses, err := v.Configured(ctx, "ocr-reader", schema)
	if err != nil {
		panic(err)
	}
	for _, s := range statuses {
		fmt.Printf("%s required=%v hasValue=%v hasDefault=%v\n", s.Name, s.Required, s.HasValue, s.HasDefault)
	}

	// What the executor injects into the skill's process.
	env, err := v.ResolveEnv(ctx, "ocr-reader", schema)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(env), env["OCR_REGION"], env["OCR_API_KEY"] == "sk-example")

	// What the loader reports.
	for _, d := range v.EnvChecker().Check(ctx, &skill.Skill{Name: "ocr-reader", Env: schema}) {
		fmt.Println(d.Code, d.Message)
	}
	// Output:
	// OCR_API_KEY required=true hasValue=true hasDefault=false
	// OCR_REGION required=false hasValue=false hasDefault=true
	// OCR_PROJECT required=true hasValue=false hasDefault=false
	// 2 eu true
	// ENV_NOT_CONFIGURED required environment variable OCR_PROJECT has no saved value and no default
}

func ExampleVault_Rotate() {
	ctx := context.Background()
	store := &secrets.MemStore{}
	oldKey, _ := secrets.DeriveKey([]byte("the old secret, long and random"))
	newKey, _ := secrets.DeriveKey([]byte("the new secret, long and random"))
	oldRing, _ := secrets.NewKeyring(oldKey)
	newRing, _ := secrets.NewKeyring(newKey)

	v := secrets.NewVault(store, &secrets.Options{Keyring: oldRing})
	if err := v.Save(ctx, "ocr-reader", map[string]string{"OCR_API_KEY": "sk-example", "OCR_PROJECT": "p1"}); err != nil {
		panic(err)
	}
	stats, err := v.Rotate(ctx, newRing)
	if err != nil {
		panic(err) // run Rotate again with the same keyring to finish
	}
	fmt.Printf("resealed %d, unchanged %d\n", stats.Resealed, stats.Unchanged)

	// The old key is no longer needed.
	env, err := secrets.NewVault(store, &secrets.Options{Keyring: newRing}).ResolveEnv(ctx, "ocr-reader", nil)
	fmt.Println(len(env), err)
	// Output:
	// resealed 2, unchanged 0
	// 2 <nil>
}

func ExampleKeyringFromEnv() {
	vars := map[string]string{
		"SKILL_SECRET_KEY":          "the new secret, long and random",
		"SKILL_SECRET_KEY_PREVIOUS": "the old secret, long and random",
	}
	kr, err := secrets.KeyringFromEnv(func(k string) string { return vars[k] })
	if err != nil {
		panic(err)
	}
	fmt.Println(kr) // key ids only, never key material
	_, err = secrets.KeyringFromEnv(func(string) string { return "" })
	fmt.Println(err)
	// Output:
	// secrets.Keyring(primary=0x0b42907e, keys=[0x0b42907e 0x7fec19ad])
	// secrets: no key configured: set SKILL_SECRET_KEY (or APP_SECRET) to a random secret of at least 16 bytes, e.g. the output of `openssl rand -base64 32`
}

func ExampleVault_ImportLegacy() {
	ctx := context.Background()
	// A skill's secrets in the legacy format (one encrypted JSON object,
	// base64(IV || ciphertext || tag)), written with
	// SKILL_SECRET_KEY=legacy-demo-secret.
	blob := "bledK69RpeCCUxNMHcv6pBXSqUIBvyw5+wYfbJL+t5ttCHXVqqVdfpvWY8luzj/tw3pf4BzFSmQ+j89kSCSoFg5T6DLNmiE1+y6I"
	getenv := func(k string) string {
		return map[string]string{"SKILL_SECRET_KEY": "legacy-demo-secret"}[k]
	}
	legacy, err := secrets.LegacyKeyFromEnv(getenv)
	if err != nil {
		panic(err)
	}
	key, _ := secrets.DeriveKey([]byte("example only: use openssl rand -base64 32"))
	kr, _ := secrets.NewKeyring(key)
	v := secrets.NewVault(nil, &secrets.Options{Keyring: kr})
	names, err := v.ImportLegacy(ctx, "ocr-reader", blob, legacy)
	fmt.Println(names, err)
	// Output:
	// [OCR_API_KEY REGION] <nil>
}
