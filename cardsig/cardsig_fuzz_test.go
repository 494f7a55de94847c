package cardsig_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/a2a-conform/a2a-conform/cardsig"
)

// FuzzCardSignature feeds arbitrary bytes as an Agent Card to the
// canonicalizers and to Verify with a static key store holding vendor A's
// committed test key (fixtures/cards). It asserts:
//   - nothing panics;
//   - each canonical form is idempotent: C(C(x)) == C(x), and its output is a
//     JSON object again;
//   - every Verify error is a classified *cardsig.Error;
//   - a card that verifies canonicalizes (in the form Verify reports) to
//     exactly the bytes of the golden signed card: a signature never vouches
//     for different content.
func FuzzCardSignature(f *testing.F) {
	signed, err := os.ReadFile(filepath.Join("..", "fixtures", "cards", "a.signed.json"))
	if err != nil {
		f.Fatal(err)
	}
	jwks, err := os.ReadFile(filepath.Join("..", "fixtures", "cards", "a.jwks.json"))
	if err != nil {
		f.Fatal(err)
	}
	keys, err := cardsig.ParseJWKS(jwks)
	if err != nil {
		f.Fatal(err)
	}
	src := cardsig.StaticKeys{
		"https://agent.vendor-a.example/.well-known/jwks.json": keys,
		"": keys,
	}
	gold := map[cardsig.Form][]byte{}
	if gold[cardsig.FormJCS], err = cardsig.Canonicalize(signed); err != nil {
		f.Fatal(err)
	}
	if gold[cardsig.FormJCSDropEmpty], err = cardsig.CanonicalizeDropEmpty(signed); err != nil {
		f.Fatal(err)
	}
	if _, err := cardsig.Verify(context.Background(), signed, src); err != nil {
		f.Fatalf("golden card does not verify: %v", err)
	}
	f.Add(signed)
	for _, name := range []string{"a.json", "b.json", "b.cdn.json", "c.json", "d.json"} {
		if b, err := os.ReadFile(filepath.Join("..", "fixtures", "cards", name)); err == nil {
			f.Add(b)
		}
	}

	canon := map[cardsig.Form]func([]byte) ([]byte, error){
		cardsig.FormJCS:          cardsig.Canonicalize,
		cardsig.FormJCSDropEmpty: cardsig.CanonicalizeDropEmpty,
	}
	f.Fuzz(func(t *testing.T, card []byte) {
		for form, c := range canon {
			once, err := c(card)
			if err != nil {
				continue
			}
			if len(once) == 0 || once[0] != '{' {
				t.Fatalf("%s: canonical form is not an object: %q", form, once)
			}
			twice, err := c(once)
			if err != nil {
				t.Fatalf("%s: canonical output does not canonicalize again: %v\nonce: %q", form, err, once)
			}
			if !bytes.Equal(once, twice) {
				t.Fatalf("%s: not idempotent\nonce:  %q\ntwice: %q", form, once, twice)
			}
		}
		v, err := cardsig.Verify(context.Background(), card, src, cardsig.WithCardURL("https://agent.vendor-a.example/.well-known/agent-card.json"))
		if err != nil {
			var ce *cardsig.Error
			if !errors.As(err, &ce) || cardsig.ClassOf(err) == "" {
				t.Fatalf("Verify error is not a classified *cardsig.Error: %T %v", err, err)
			}
			if v != nil {
				t.Fatalf("Verify returned both a result and an error")
			}
			return
		}
		if v == nil {
			t.Fatal("Verify returned neither result nor error")
		}
		want, ok := gold[v.Form]
		if !ok {
			t.Fatalf("Verify reports unknown form %q", v.Form)
		}
		got, err := canon[v.Form](card)
		if err != nil {
			t.Fatalf("verified card does not canonicalize: %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("a card with other content verified under %s:\ngot:  %q\nwant: %q", v.Form, got, want)
		}
	})
}
