package actors

import (
	"github.com/mockgql/mockgql/actors/internal/pb"
	"github.com/mockgql/mockgql/model"
)

// result is what a grain method answers: one of the reply types below, or
// a record of this package (AccountState, ProjectOwner, …; put beside
// them here), each of which puts itself into the Reply's oneof. A method
// answers nil for no result. The set is closed (put is unexported), so a
// method's answer is checked by the compiler, not by a type switch at run
// time; the client's decoders (client.go) are the other way.
type result interface{ put(r *pb.Reply) }

// The reply types of results that are not this package's own types. A
// wrapper holds its value, not its encoding: a result is put on the wire
// after the method returns (safeHandle), as the value then is.
type (
	// doneReply says whether a request changed anything (Reply.done).
	doneReply bool
	// sdlReply is a project's runtime schema (Reply.sdl).
	sdlReply string
	// projectReply, tableReply, attributeReply, relationReply and
	// operationReply are one model document.
	projectReply   struct{ v *model.Project }
	tableReply     struct{ v *model.Table }
	attributeReply struct{ v *model.Attribute }
	relationReply  struct{ v *model.Relation }
	operationReply struct{ v *model.Operation }
	// tablesReply, operationsReply and viewsReply are lists of documents:
	// nil travels as no result, empty as an empty list (as null and [] did
	// in JSON; the message fields of a oneof keep their presence).
	tablesReply     []*model.Table
	operationsReply []*model.Operation
	viewsReply      []*model.View
	// keyReply is an API key's record.
	keyReply model.APIKey
	// requestLogReply is a project's request log.
	requestLogReply []model.RequestLogEntry
	// sessionClaims is a session's project claims (nil: no result).
	sessionClaims []SessionClaim
	// rawReply is a Reply a method built whole (the runtime's answers);
	// resultOf answers it as it is.
	rawReply struct{ r *pb.Reply }
)

// resultOf puts a method's result into a Reply: the one conversion of
// results to the wire.
func resultOf(res result) *pb.Reply {
	if raw, ok := res.(rawReply); ok && raw.r != nil {
		return raw.r
	}
	r := &pb.Reply{}
	if res != nil {
		res.put(r)
	}
	return r
}

func (v doneReply) put(r *pb.Reply) { r.Result = &pb.Reply_Done{Done: bool(v)} }
func (v sdlReply) put(r *pb.Reply)  { r.Result = &pb.Reply_Sdl{Sdl: string(v)} }
func (rawReply) put(*pb.Reply)      {} // resultOf answers the Reply itself

func (v projectReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_Project{Project: &pb.ProjectDoc{Json: encodeDoc(v.v)}}
}

func (v tableReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_Table{Table: &pb.TableDoc{Json: encodeDoc(v.v)}}
}

func (v attributeReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_Attribute{Attribute: &pb.AttributeDoc{Json: encodeDoc(v.v)}}
}

func (v relationReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_Relation{Relation: &pb.RelationDoc{Json: encodeDoc(v.v)}}
}

func (v operationReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_Operation{Operation: &pb.OperationDoc{Json: encodeDoc(v.v)}}
}

func (v tablesReply) put(r *pb.Reply) {
	if v == nil {
		return
	}
	l := &pb.TableList{Tables: make([]*pb.TableDoc, 0, len(v))}
	for _, t := range v {
		l.Tables = append(l.Tables, &pb.TableDoc{Json: encodeDoc(t)})
	}
	r.Result = &pb.Reply_Tables{Tables: l}
}

func (v operationsReply) put(r *pb.Reply) {
	if v == nil {
		return
	}
	l := &pb.OperationList{Operations: make([]*pb.OperationDoc, 0, len(v))}
	for _, o := range v {
		l.Operations = append(l.Operations, &pb.OperationDoc{Json: encodeDoc(o)})
	}
	r.Result = &pb.Reply_Operations{Operations: l}
}

func (v viewsReply) put(r *pb.Reply) {
	if v == nil {
		return
	}
	l := &pb.ViewList{Views: make([]*pb.ViewDoc, 0, len(v))}
	for _, w := range v {
		l.Views = append(l.Views, &pb.ViewDoc{Json: encodeDoc(w)})
	}
	r.Result = &pb.Reply_Views{Views: l}
}

func (v keyReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_ApiKey{ApiKey: &pb.APIKeyDoc{Json: encodeDoc(model.APIKey(v))}}
}

func (v requestLogReply) put(r *pb.Reply) {
	r.Result = &pb.Reply_RequestLog{RequestLog: wireRequestLog(v)}
}

func (v sessionClaims) put(r *pb.Reply) {
	if v == nil {
		return
	}
	l := &pb.SessionClaims{}
	for _, c := range v {
		l.Claims = append(l.Claims, &pb.SessionClaim{ProjectId: c.ProjectID, Expires: stamp(c.Expires)})
	}
	r.Result = &pb.Reply_Claims{Claims: l}
}

// The records of this package that grains answer with.

func (v ProjectOwner) put(r *pb.Reply) {
	r.Result = &pb.Reply_Owner{Owner: &pb.ProjectOwnerInfo{Kind: string(v.Kind), AccountId: v.AccountID, Session: v.Session}}
}

func (v expired) put(r *pb.Reply) {
	r.Result = &pb.Reply_Expired{Expired: &pb.Expired{Deleted: v.Deleted, Slug: v.Slug, Session: v.Session}}
}

func (v AccountState) put(r *pb.Reply) {
	r.Result = &pb.Reply_Account{Account: &pb.AccountRecordDoc{Json: encodeDoc(v)}}
}

func (v quotaUsage) put(r *pb.Reply) {
	r.Result = &pb.Reply_Usage{Usage: &pb.Usage{Requests: v.Requests, Quota: v.Quota, Start: stamp(v.Start), ResetsAt: stamp(v.ResetsAt)}}
}

func (v leaseGrant) put(r *pb.Reply) {
	r.Result = &pb.Reply_LeaseGrant{LeaseGrant: &pb.LeaseGrant{Units: v.Units, Start: stamp(v.Start), End: stamp(v.End)}}
}

func (v ActorGrant) put(r *pb.Reply) {
	r.Result = &pb.Reply_ActorGrant{ActorGrant: &pb.ActorGrant{ActorToken: v.ActorToken, ExpiresInSeconds: int32(v.ExpiresInSeconds),
		MaxActors: int32(v.MaxActors), CurrentActors: int32(v.CurrentActors)}}
}

func (v UserState) put(r *pb.Reply) {
	r.Result = &pb.Reply_User{User: &pb.UserRecordDoc{Json: encodeDoc(v)}}
}

func (v AdoptionState) put(r *pb.Reply) {
	r.Result = &pb.Reply_Adoption{Adoption: &pb.Adoption{ProjectId: v.ProjectID, Expires: stamp(v.Expires), Used: v.Used}}
}

func (v slugState) put(r *pb.Reply) {
	r.Result = &pb.Reply_SlugOwner{SlugOwner: &pb.SlugOwner{ProjectId: v.ProjectID}}
}

func (v DatasetMeta) put(r *pb.Reply) {
	r.Result = &pb.Reply_Dataset{Dataset: &pb.DatasetDoc{Json: encodeDoc(v)}}
}

// tableOf, attributeOf, operationOf, tablesOf and operationsOf answer a
// model edit's (value, error) as a method's (result, error).
func tableOf(v *model.Table, err error) (result, error)         { return tableReply{v}, err }
func attributeOf(v *model.Attribute, err error) (result, error) { return attributeReply{v}, err }
func operationOf(v *model.Operation, err error) (result, error) { return operationReply{v}, err }
func tablesOf(v []*model.Table, err error) (result, error)      { return tablesReply(v), err }
func operationsOf(v []*model.Operation, err error) (result, error) {
	return operationsReply(v), err
}
