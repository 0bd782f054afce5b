// Verdicts records Apache Avro Java's SchemaCompatibility verdict on every
// reader/writer pair of wiregate's corpus (harness/avrocompat/testdata/java).
// Run by scripts/avro-java.sh, not by CI: the Go test compares wiregate's
// verdicts with the file this writes.
//
//   java -cp 'libs/*' Verdicts.java corpus.json verdicts.json
//
// Per pair: COMPATIBLE or INCOMPATIBLE (checkReaderWriterCompatibility),
// INVALID when a schema does not parse (a fresh Schema.Parser per schema,
// defaults validated, as Java parses by default), ERROR when the check
// itself throws.
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
      Schema reader, writer;
      try {
        reader = new Schema.Parser().parse(pair.get("reader").toString());
      } catch (RuntimeException e) {
        v.put("verdict", "INVALID");
        v.put("detail", "reader: " + e.getMessage());
        continue;
      }
      try {
        writer = new Schema.Parser().parse(pair.get("writer").toString());
      } catch (RuntimeException e) {
        v.put("verdict", "INVALID");
        v.put("detail", "writer: " + e.getMessage());
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
}
