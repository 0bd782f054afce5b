// Verdicts records Apache Avro Java's SchemaCompatibility verdict on every
// reader/writer pair of wiregate's corpus (harness/parent/avrocompat/testdata/java).
// Run by scripts/avro-java.sh, not by CI: the Go test compares wiregate's
// verdicts with the file this writes.
//
//   java -cp 'libs/*' Verdicts.java corpus.json verdicts.json
//
// Per pair: COMPATIBLE or INCOMPATIBLE (checkReaderWriterCompatibility),
// INVALID when a schema does not parse (a fresh Schema.Parser per schema,
// defaults validated, as Java parses by default), ERROR when the check
// itself throws. A side's "reader_imports" / "writer_imports" are other
// .avsc files of its set: its parser reads them first, in the order given
// (dependencies first, as avro-maven-plugin's imports), and keeps their
// named types for the schema itself.
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

public class Verdicts {
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: Verdicts corpus.json verdicts.json");
      System.exit(2);
    }
    ObjectMapper json = new ObjectMapper();
    JsonNode corpus = json.readTree(new File(args[0]));
    ObjectNode out = json.createObjectNode();
    out.put("avro", Schema.class.getPackage().getImplementationVersion());
    out.put("java", System.getProperty("java.version"));
    out.put("recorded", LocalDate.now(ZoneOffset.UTC).toString());
    ObjectNode verdicts = out.putObject("verdicts");
    for (JsonNode pair : corpus) {
      ObjectNode v = verdicts.putObject(pair.get("name").asText());
      Schema reader = parse(pair, "reader", v);
      Schema writer = reader == null ? null : parse(pair, "writer", v);
      if (writer == null) {
        continue;
      }
      try {
        SchemaCompatibility.SchemaPairCompatibility c = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        v.put("verdict", c.getType().name());
        if (c.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
          StringBuilder detail = new StringBuilder();
          for (SchemaCompatibility.Incompatibility i : c.getResult().getIncompatibilities()) {
            if (detail.length() > 0) {
              detail.append("; ");
            }
            detail.append(i.getType()).append(" at ").append(i.getLocation()).append(": ").append(i.getMessage());
          }
          v.put("detail", detail.toString());
        }
      } catch (RuntimeException e) {
        v.put("verdict", "ERROR");
        v.put("detail", e.getClass().getSimpleName() + ": " + e.getMessage());
      }
    }
    json.writerWithDefaultPrettyPrinter().writeValue(new File(args[1]), out);
  }

  // parse parses the pair's reader or writer with a fresh parser, or records
  // the pair as INVALID and returns null.
  static Schema parse(JsonNode pair, String side, ObjectNode verdict) {
    try {
      Schema.Parser parser = new Schema.Parser();
      JsonNode imports = pair.get(side + "_imports");
      if (imports != null) {
        for (JsonNode imported : imports) {
          parser.parse(imported.toString());
        }
      }
      return parser.parse(pair.get(side).toString());
    } catch (RuntimeException e) {
      verdict.put("verdict", "INVALID");
      verdict.put("detail", side + ": " + e.getMessage());
      return null;
    }
  }
}
