package graphql

import (
	"fmt"
	"testing"
)

// TestContractRelationKeyArgs: an argument named after a to-one relation's
// key (messages(channelId:)) filters on it though the schema shows no
// channelId field, and a create whose input names the keys (sendMessage:
// "send" is a create verb) links the new row both ways.
func TestContractRelationKeyArgs(t *testing.T) {
	h := newContractHarness(t, "testdata/contract/chat.graphql")
	out := h.do(`{ messages(channelId: "channel-1", first: 50) { totalCount edges { node { id channel { id } } } }
		channel(id: "channel-1") { messages(first: 50) { totalCount } } }`, nil)
	total := jsonAt(out, "data.messages.totalCount")
	if total == nil || fmt.Sprint(total) != fmt.Sprint(jsonAt(out, "data.channel.messages.totalCount")) || total == 20.0 {
		t.Fatalf("messages(channelId:) against the channel's own messages: %v", out)
	}
	edges, _ := jsonAt(out, "data.messages.edges").([]any)
	for _, e := range edges {
		if got := jsonAt(e, "node.channel.id"); got != "channel-1" {
			t.Errorf("a message of channel %v in messages(channelId: channel-1)", got)
		}
	}
	out = h.do(`mutation { sendMessage(input: {channelId: "channel-2", authorId: "user-3", text: "hello"}) { id text channel { id } author { id } } }`, nil)
	if got := fmt.Sprintf("%v %v %v", jsonAt(out, "data.sendMessage.channel.id"), jsonAt(out, "data.sendMessage.author.id"), jsonAt(out, "data.sendMessage.text")); got != "channel-2 user-3 hello" {
		t.Fatalf("sendMessage: %v", out)
	}
	id := jsonAt(out, "data.sendMessage.id")
	out = h.do(`{ messages(channelId: "channel-2", first: 50) { edges { node { id } } } channel(id: "channel-2") { messages(first: 50) { edges { node { id text } } } } }`, nil)
	for _, path := range []string{"data.messages.edges", "data.channel.messages.edges"} {
		found := false
		edges, _ := jsonAt(out, path).([]any)
		for _, e := range edges {
			found = found || jsonAt(e, "node.id") == id
		}
		if !found {
			t.Errorf("the sent message %v is not in %s: %v", id, path, out)
		}
	}
}
